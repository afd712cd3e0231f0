CREATE TABLE "invoice_totals" (
	"owner_id" uuid NOT NULL,
	"account_ids" uuid[] NOT NULL,
	"currency" text NOT NULL,
	"month" text NOT NULL,
	"invoices" integer NOT NULL,
	"amount_minor" numeric NOT NULL,
	CONSTRAINT "invoice_totals_owner_id_account_ids_currency_month_pk" PRIMARY KEY("owner_id","account_ids","currency","month")
);
--> statement-breakpoint
ALTER TABLE "auth_failures" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "client_address" text;--> statement-breakpoint
CREATE INDEX "auth_failures_failed_idx" ON "auth_failures" USING btree ("failed_at");