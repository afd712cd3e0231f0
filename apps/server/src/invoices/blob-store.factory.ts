import path from 'node:path';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type BlobStore, LocalBlobStore } from './blob.store';
import { PgBlobStore } from './pg-blob.store';

/** `documents`: attachments by content hash, shared by everyone's invoices; `uploads`: files waiting for a job. */
export type BlobNamespace = 'documents' | 'uploads';

const LOCAL_FOLDERS: Record<BlobNamespace, string> = { documents: 'blobs', uploads: 'uploads' };

/** The document store the configuration names; services never know which one they hold. */
export function createBlobStore(
  config: Pick<Config, 'documentStore' | 'dataDir'>,
  db: Db,
  namespace: BlobNamespace,
): BlobStore {
  return config.documentStore === 'postgres'
    ? new PgBlobStore(db, namespace)
    : new LocalBlobStore(path.join(config.dataDir, LOCAL_FOLDERS[namespace]));
}
