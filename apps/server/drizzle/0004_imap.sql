CREATE TABLE "imap_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"secure" boolean NOT NULL,
	"username" text NOT NULL,
	"password_encrypted" text NOT NULL,
	"mailboxes" text[] DEFAULT '{INBOX}'::text[] NOT NULL,
	"sync_cursor" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imap_settings" ADD CONSTRAINT "imap_settings_account_id_mail_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imap_settings" ADD CONSTRAINT "imap_settings_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;