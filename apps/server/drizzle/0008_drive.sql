CREATE TABLE "drive_connections" (
	"owner_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"google_account_id" uuid,
	"webdav_url" text,
	"webdav_username" text,
	"webdav_password_encrypted" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "invoices_owner_vendor_idx";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "drive_target" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "drive_error" text;--> statement-breakpoint
ALTER TABLE "drive_connections" ADD CONSTRAINT "drive_connections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drive_connections" ADD CONSTRAINT "drive_connections_google_account_id_mail_accounts_id_fk" FOREIGN KEY ("google_account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_owner_vendor_date_idx" ON "invoices" USING btree ("owner_id","vendor","invoice_date" desc nulls last);--> statement-breakpoint
CREATE INDEX "invoices_owner_attached_date_idx" ON "invoices" USING btree ("owner_id","invoice_date" desc nulls last) WHERE "invoices"."has_attachments";