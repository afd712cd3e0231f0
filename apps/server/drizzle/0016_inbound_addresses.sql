CREATE TABLE "inbound_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "inbound_addresses_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "inbound_addresses" ADD CONSTRAINT "inbound_addresses_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_addresses_owner_idx" ON "inbound_addresses" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_addresses_current_idx" ON "inbound_addresses" USING btree ("owner_id") WHERE retired_at is null;