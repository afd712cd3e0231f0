CREATE TABLE "forwarding_config" (
	"owner_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"target_emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"enabled_at" timestamp with time zone,
	"max_recipients" integer DEFAULT 20 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forwarding_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"recipient" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"message_id" text NOT NULL,
	"sender_kind" text,
	"claimed_by" uuid,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "forwarding_smtp_relays" (
	"owner_id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"tls" text NOT NULL,
	"username" text NOT NULL,
	"password_encrypted" text NOT NULL,
	"from_address" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "raw_sha256" text;--> statement-breakpoint
ALTER TABLE "forwarding_config" ADD CONSTRAINT "forwarding_config_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_outbox" ADD CONSTRAINT "forwarding_outbox_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_outbox" ADD CONSTRAINT "forwarding_outbox_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_smtp_relays" ADD CONSTRAINT "forwarding_smtp_relays_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "forwarding_outbox_owner_invoice_recipient_uq" ON "forwarding_outbox" USING btree ("owner_id","invoice_id","recipient");--> statement-breakpoint
CREATE INDEX "forwarding_outbox_owner_status_idx" ON "forwarding_outbox" USING btree ("owner_id","status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "forwarding_outbox_invoice_idx" ON "forwarding_outbox" USING btree ("invoice_id");