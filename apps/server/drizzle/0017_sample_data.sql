ALTER TABLE "mail_accounts" ADD COLUMN "is_sample" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_statements" ADD COLUMN "is_sample" boolean DEFAULT false NOT NULL;