CREATE TABLE "bank_match_overrides" (
	"statement_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"invoice_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_match_overrides_statement_id_fingerprint_pk" PRIMARY KEY("statement_id","fingerprint")
);
--> statement-breakpoint
CREATE TABLE "bank_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"account_ids" uuid[],
	"status" text DEFAULT 'pending' NOT NULL,
	"job_id" uuid,
	"error" text,
	"format" text,
	"bank_name" text,
	"account_number" text,
	"start_date" text,
	"end_date" text,
	"currency" text,
	"opening_balance_minor" bigint,
	"closing_balance_minor" bigint,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"analyzed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "bank_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"statement_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"date" text NOT NULL,
	"value_date" text,
	"description" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"type" text NOT NULL,
	"balance_after_minor" bigint,
	"reference" text,
	"counterparty_name" text,
	"counterparty_iban" text,
	"matched_invoice_id" uuid,
	"match_score" real,
	"match_explanation" text,
	"match_source" text
);
--> statement-breakpoint
ALTER TABLE "bank_match_overrides" ADD CONSTRAINT "bank_match_overrides_statement_id_bank_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."bank_statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_match_overrides" ADD CONSTRAINT "bank_match_overrides_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statements" ADD CONSTRAINT "bank_statements_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transactions" ADD CONSTRAINT "bank_transactions_statement_id_bank_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."bank_statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transactions" ADD CONSTRAINT "bank_transactions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_transactions" ADD CONSTRAINT "bank_transactions_matched_invoice_id_invoices_id_fk" FOREIGN KEY ("matched_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_statements_owner_uploaded_idx" ON "bank_statements" USING btree ("owner_id","uploaded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_transactions_statement_position_idx" ON "bank_transactions" USING btree ("statement_id","position");--> statement-breakpoint
CREATE INDEX "bank_transactions_owner_invoice_idx" ON "bank_transactions" USING btree ("owner_id","matched_invoice_id");