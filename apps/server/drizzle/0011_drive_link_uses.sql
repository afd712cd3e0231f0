CREATE TABLE "drive_link_uses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "drive_link_uses" ADD CONSTRAINT "drive_link_uses_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "drive_link_uses_expires_at_idx" ON "drive_link_uses" USING btree ("expires_at");