CREATE TABLE "client_error_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid,
	"client_address" text NOT NULL,
	"source" text NOT NULL,
	"level" text,
	"message" text NOT NULL,
	"stack" text,
	"url" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_error_reports" ADD CONSTRAINT "client_error_reports_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_error_reports_received_idx" ON "client_error_reports" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "client_error_reports_owner_idx" ON "client_error_reports" USING btree ("owner_id");