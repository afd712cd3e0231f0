CREATE TABLE "document_read_failures" (
	"owner_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"code" text NOT NULL,
	"message" text NOT NULL,
	"rules_version" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_read_failures_owner_id_sha256_pk" PRIMARY KEY("owner_id","sha256")
);
--> statement-breakpoint
ALTER TABLE "message_attachments" ADD COLUMN "read_error" text;--> statement-breakpoint
ALTER TABLE "document_read_failures" ADD CONSTRAINT "document_read_failures_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;