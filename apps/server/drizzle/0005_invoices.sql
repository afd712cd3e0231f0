CREATE TABLE "invoice_accounts" (
	"invoice_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	CONSTRAINT "invoice_accounts_invoice_id_account_id_pk" PRIMARY KEY("invoice_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"dedupe_key" text NOT NULL,
	"message_row_id" uuid NOT NULL,
	"vendor" text,
	"email" text,
	"amount" text,
	"amount_minor" bigint,
	"currency" text,
	"invoice_date" text,
	"invoice_number" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"drive_file_id" text,
	"category" text DEFAULT 'Invoice' NOT NULL,
	"details" text,
	"extraction" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"message_id" text,
	"sender_name" text,
	"sender_email" text,
	"subject" text,
	"sent_at" timestamp with time zone,
	"snippet" text,
	"is_candidate" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_attachments" (
	"message_row_id" uuid NOT NULL,
	"position" bigint NOT NULL,
	"sha256" text NOT NULL,
	"filename" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"qualifies" boolean NOT NULL,
	CONSTRAINT "message_attachments_message_row_id_position_pk" PRIMARY KEY("message_row_id","position")
);
--> statement-breakpoint
ALTER TABLE "invoice_accounts" ADD CONSTRAINT "invoice_accounts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_accounts" ADD CONSTRAINT "invoice_accounts_account_id_mail_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_message_row_id_mail_messages_id_fk" FOREIGN KEY ("message_row_id") REFERENCES "public"."mail_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_account_id_mail_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_row_id_mail_messages_id_fk" FOREIGN KEY ("message_row_id") REFERENCES "public"."mail_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_accounts_account_idx" ON "invoice_accounts" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_owner_dedupe_uq" ON "invoices" USING btree ("owner_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "invoices_owner_date_idx" ON "invoices" USING btree ("owner_id","invoice_date" desc nulls last);--> statement-breakpoint
CREATE INDEX "invoices_owner_vendor_idx" ON "invoices" USING btree ("owner_id","vendor");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_account_origin_uq" ON "mail_messages" USING btree ("account_id","origin");--> statement-breakpoint
CREATE INDEX "mail_messages_owner_idx" ON "mail_messages" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "message_attachments_sha_idx" ON "message_attachments" USING btree ("sha256");