import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config, S3Config } from '../config';
import type { Db } from '../db/client';
import { type BlobStore, LocalBlobStore } from './blob.store';
import { PgBlobStore } from './pg-blob.store';
import { createS3Client, S3BlobStore, verifyS3Bucket } from './s3-blob.store';

/** `documents`: attachments by content hash, shared by everyone's invoices; `uploads`: files waiting for a job. */
export type BlobNamespace = 'documents' | 'uploads';

export type DocumentStoreKind = Config['documentStore'];

const LOCAL_FOLDERS: Record<BlobNamespace, string> = { documents: 'blobs', uploads: 'uploads' };
/** An upload is read by its job within minutes, and its row is swept after 7 days: an older object is an orphan. */
const UPLOAD_OBJECT_EXPIRY_MS = 8 * 24 * 60 * 60_000;

type StoreConfig = Pick<Config, 'documentStore' | 'dataDir' | 's3'>;

/** One S3 client per configuration, shared by its namespaces. */
const s3Clients = new WeakMap<S3Config, S3Client>();

function s3ClientFor(config: S3Config): S3Client {
  let client = s3Clients.get(config);
  if (!client) {
    client = createS3Client(config);
    s3Clients.set(config, client);
  }
  return client;
}

/** The document store the configuration names; services never know which one they hold. */
export function createBlobStore(config: StoreConfig, db: Db, namespace: BlobNamespace): BlobStore {
  return createBlobStoreOfKind(config.documentStore, config, db, namespace);
}

/** A given kind of store (`invoicebox blobs migrate` opens the target beside the configured one). */
export function createBlobStoreOfKind(
  kind: DocumentStoreKind,
  config: Omit<StoreConfig, 'documentStore'>,
  db: Db,
  namespace: BlobNamespace,
): BlobStore {
  switch (kind) {
    case 'postgres':
      return new PgBlobStore(db, namespace);
    case 's3': {
      const s3 = requireS3(config.s3);
      return new S3BlobStore(
        s3ClientFor(s3),
        s3.bucket,
        `${namespace}/`,
        namespace === 'uploads' ? UPLOAD_OBJECT_EXPIRY_MS : undefined,
      );
    }
    default:
      return new LocalBlobStore(path.join(config.dataDir, LOCAL_FOLDERS[namespace]));
  }
}

/** Start-up check of a store outside this process (the bucket exists and the keys may use it). */
export async function verifyBlobStore(kind: DocumentStoreKind, config: Pick<Config, 's3'>): Promise<void> {
  if (kind === 's3') {
    const s3 = requireS3(config.s3);
    await verifyS3Bucket(s3ClientFor(s3), s3);
  }
}

function requireS3(s3: S3Config | undefined): S3Config {
  if (!s3) throw new Error('the S3 document store needs S3_BUCKET (and S3_ENDPOINT, keys) in the configuration');
  return s3;
}
