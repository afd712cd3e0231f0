import {
  bigint,
  customType,
  foreignKey,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../users/users.tables';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The document store on PostgreSQL (DOCUMENT_STORE=postgres, the default with DATABASE_URL): every process of a
 * scaled-out deployment reads the same bytes, wherever it runs. One row per stored file (by namespace and SHA-256),
 * its bytes in chunks of 1 MiB so that a large file streams instead of sitting in one value.
 */
export const documentBlobs = pgTable(
  'document_blobs',
  {
    namespace: text('namespace').notNull(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    chunks: integer('chunks').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.namespace, t.sha256] })],
);

export const documentBlobChunks = pgTable(
  'document_blob_chunks',
  {
    namespace: text('namespace').notNull(),
    sha256: text('sha256').notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.namespace, t.sha256, t.seq] }),
    foreignKey({
      columns: [t.namespace, t.sha256],
      foreignColumns: [documentBlobs.namespace, documentBlobs.sha256],
    }).onDelete('cascade'),
  ],
);

/**
 * Mail files uploaded for import (mbox, .eml, Takeout .zip), between the request that received them and the
 * `mail_import` job that reads them — which may run on another machine. The bytes are in the `uploads` namespace of
 * the document store; the row is deleted when the import has read them to the end.
 */
export const mailUploads = pgTable('mail_uploads', {
  id: uuid('id').primaryKey(),
  ownerId: uuid('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The upload's own key in the store (not its content hash: two uploads of one file are two entries). */
  blobKey: text('blob_key').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
