CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "has_attachments" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "account_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
UPDATE "invoices" i SET
  "has_attachments" = EXISTS (SELECT 1 FROM "message_attachments" a WHERE a."message_row_id" = i."message_row_id" AND a."qualifies"),
  "account_ids" = coalesce((SELECT array_agg(ia."account_id") FROM "invoice_accounts" ia WHERE ia."invoice_id" = i."id"), '{}'::uuid[]),
  "search_text" = lower(concat_ws(E'\n', i."vendor", i."email", m."sender_name", m."subject", i."invoice_number",
    (SELECT string_agg(a."filename", E'\n') FROM "message_attachments" a WHERE a."message_row_id" = i."message_row_id")))
  FROM "mail_messages" m WHERE m."id" = i."message_row_id";--> statement-breakpoint
CREATE INDEX "invoices_owner_status_date_idx" ON "invoices" USING btree ("owner_id","status","invoice_date" desc nulls last);--> statement-breakpoint
CREATE INDEX "invoices_owner_category_date_idx" ON "invoices" USING btree ("owner_id","category","invoice_date" desc nulls last);--> statement-breakpoint
CREATE INDEX "invoices_message_idx" ON "invoices" USING btree ("message_row_id");--> statement-breakpoint
CREATE INDEX "invoices_account_ids_idx" ON "invoices" USING gin ("account_ids");--> statement-breakpoint
CREATE INDEX "invoices_search_trgm_idx" ON "invoices" USING gin ("search_text" gin_trgm_ops);