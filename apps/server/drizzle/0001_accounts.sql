CREATE TABLE "account_scope_selections" (
	"owner_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	CONSTRAINT "account_scope_selections_owner_id_account_id_pk" PRIMARY KEY("owner_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "account_scopes" (
	"owner_id" uuid PRIMARY KEY NOT NULL,
	"scope" text DEFAULT 'current' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"needs_reauth" boolean DEFAULT false NOT NULL,
	"reauth_reason" text,
	"last_sync_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_scope_selections" ADD CONSTRAINT "account_scope_selections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_scope_selections" ADD CONSTRAINT "account_scope_selections_account_id_mail_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."mail_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_scopes" ADD CONSTRAINT "account_scopes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_accounts" ADD CONSTRAINT "mail_accounts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_accounts_owner_provider_email_uq" ON "mail_accounts" USING btree ("owner_id","provider",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "mail_accounts_one_primary_uq" ON "mail_accounts" USING btree ("owner_id") WHERE "mail_accounts"."is_primary";--> statement-breakpoint
CREATE UNIQUE INDEX "mail_accounts_one_active_uq" ON "mail_accounts" USING btree ("owner_id") WHERE "mail_accounts"."is_active";--> statement-breakpoint
CREATE INDEX "mail_accounts_owner_created_idx" ON "mail_accounts" USING btree ("owner_id","created_at");