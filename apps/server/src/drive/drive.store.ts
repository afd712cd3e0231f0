import type { Readable } from 'node:stream';
import { AppError } from '../errors';

/**
 * A person's drive: where invoices are filed as `Invoices/YYYY/MM/<name>`. One interface, three adapters (local
 * folder, Google Drive, WebDAV), all passing the same contract suite (drive.contract.ts).
 *
 * Duplicates are decided by the drive itself, not by our database: before a file is written the adapter looks in the
 * target folder for a file with the same SHA-256 (Drive appProperties, a WebDAV sidecar index, local hashing). So a
 * file that is already there is linked, not uploaded again, even after the database was lost or another device
 * uploaded it. The same name with different content gets a suffixed name; nothing is ever overwritten.
 */
export type DriveKind = 'local' | 'google' | 'webdav';

/** A file as the drive knows it. `id` is what `invoices.drive_file_id` stores and `open` accepts. */
export interface DriveFile {
  id: string;
  name: string;
  /** Folder path segments under the drive root, e.g. ['Invoices', '2026', '03']. */
  folder: string[];
  size: number;
  sha256: string | null;
  /** A link a browser can open directly (Google Drive's webViewLink); null when the server streams it. */
  webUrl: string | null;
}

export interface DriveUpload {
  /** Folder path segments under the drive root; each a sanitised name (see drive-naming.ts). */
  folder: string[];
  /** The sanitised file name wanted; a different file of this name already there makes it `name (2).ext`. */
  name: string;
  sha256: string;
  size: number;
  contentType: string;
  /** Our invoice id, recorded with the file where the drive can keep properties (Google Drive appProperties). */
  invoiceId: string;
  /** The bytes, opened only when an upload is really needed (a duplicate never reads them). */
  open: () => Readable;
}

export interface DriveUploadResult {
  file: DriveFile;
  /** false when a file with the same content was already in the folder and has been linked instead. */
  created: boolean;
}

export type DriveOpenResult =
  | { kind: 'redirect'; url: string }
  | { kind: 'stream'; stream: Readable; name: string; contentType: string; size: number };

export interface DriveStore {
  readonly kind: DriveKind;
  /** Reaches the drive with its credentials; returns a human description of the root (path or URL). */
  check(): Promise<{ root: string }>;
  /** The file in `folder` whose content has this SHA-256, or null (also null when the folder does not exist). */
  findByHash(folder: string[], sha256: string): Promise<DriveFile | null>;
  /** Files the upload as described above: creates folders on demand, never overwrites, never uploads a duplicate. */
  upload(file: DriveUpload): Promise<DriveUploadResult>;
  /** Opens a file by id for the Drive button. Unknown or foreign ids are a DriveFileNotFoundError. */
  open(id: string): Promise<DriveOpenResult>;
}

/** The drive refused our credentials (revoked token, wrong app password): the person has to reconnect it. */
export class DriveAuthError extends AppError {
  constructor(message = 'The drive refused the stored credentials; reconnect it in Settings.') {
    // 409 to the API: the request was fine, the stored drive connection is not (a 401 would sign the person out).
    super(message, { code: 'drive_auth', status: 409 });
  }
}

/** The drive is unreachable, rate-limited or over quota after retries: the job can be retried later. */
export class DriveUnavailableError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(message, { code: 'drive_unavailable', status: 503, retryable: true, cause });
  }
}

export class DriveFileNotFoundError extends AppError {
  constructor() {
    super('Drive file not found', { code: 'not_found', status: 404 });
  }
}
