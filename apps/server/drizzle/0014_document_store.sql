CREATE TABLE "document_blob_chunks" (
	"namespace" text NOT NULL,
	"sha256" text NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "document_blob_chunks_namespace_sha256_seq_pk" PRIMARY KEY("namespace","sha256","seq")
);
--> statement-breakpoint
CREATE TABLE "document_blobs" (
	"namespace" text NOT NULL,
	"sha256" text NOT NULL,
	"size" bigint NOT NULL,
	"chunks" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_blobs_namespace_sha256_pk" PRIMARY KEY("namespace","sha256")
);
--> statement-breakpoint
CREATE TABLE "mail_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"blob_key" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_blob_chunks" ADD CONSTRAINT "document_blob_chunks_namespace_sha256_document_blobs_namespace_sha256_fk" FOREIGN KEY ("namespace","sha256") REFERENCES "public"."document_blobs"("namespace","sha256") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_uploads" ADD CONSTRAINT "mail_uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;