import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, lt } from 'drizzle-orm';
import yauzl from 'yauzl';
import type { AccountsService } from '../accounts/accounts.service';
import type { Db } from '../db/client';
import { AppError, NotFoundError, PayloadTooLargeError, ValidationError } from '../errors';
import type { BlobStore } from '../invoices/blob.store';
import { mailUploads } from '../invoices/blob.tables';
import type { IngestService } from '../invoices/ingest.service';
import type { RawMail } from '../mail/mail-message';
import { readRawMailPath } from '../mail/mail-path.reader';
import type { UsersService } from '../users/users.service';

const UPLOAD_ID = /^[0-9a-f-]{36}$/;
/** A ZIP may unpack to this many times the upload limit, no more. */
const ZIP_EXPANSION_LIMIT = 8;
/**
 * Nor to more than this many times its own size: mail compresses about 2–4× (text-only mail up to ~10×), while a ZIP
 * bomb's zeros compress ~1000×. Without it, a 4 MB upload could unpack to 4 GB of temporary files.
 */
const ZIP_RATIO_LIMIT = 20;
/** Any ZIP may unpack to this much, whatever its size (a small export of text-only mail). */
const ZIP_UNPACK_FLOOR = 256 * 1024 * 1024;
/** Entries a ZIP may list (a Takeout export has a handful; each is a file we write). */
const ZIP_MAX_ENTRIES = 10_000;

/** A ZIP that cannot be read as one: a permanent failure (a retry reads the same bytes), said plainly. */
function damaged(error: unknown): ValidationError {
  const detail = error instanceof Error ? error.message : String(error);
  return new ValidationError(`The ZIP is damaged or not a ZIP file (${detail})`, error);
}

/**
 * What an upload is, from its first bytes: a ZIP (Takeout), mail (an mbox "From " line or a header line), or
 * something else (a PDF, an image), which is refused at once instead of being recorded as one odd message.
 */
async function sniffUpload(file: string): Promise<'zip' | 'mail' | 'other'> {
  const handle = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(4096), position: 0 });
    const head = buffer.subarray(0, bytesRead);
    if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'zip';
    const text = head.toString('latin1').replace(/^\uFEFF/, '');
    if (text.startsWith('From ')) return 'mail';
    // An .eml starts with header fields ("Name: value"), possibly after blank lines.
    return /^\s*[!-9;-~]+:[ \t]?\S/.test(text) ? 'mail' : 'other';
  } finally {
    await handle.close();
  }
}

/**
 * An uploaded file gets a new name each time, so a message is known by its bytes instead of its place in the file:
 * uploading the same export twice (or an overlapping one) records each message once.
 */
async function* keyedByContent(source: AsyncIterable<RawMail>): AsyncGenerator<RawMail> {
  for await (const raw of source) {
    yield raw.ok ? { ...raw, origin: `upload:${createHash('sha256').update(raw.source).digest('hex')}` } : raw;
  }
}

export interface MailImportResult {
  account: string;
  read: number;
  added: number;
  invoices: number;
  unreadable: number;
}

/**
 * Mail uploaded from the browser (an mbox such as a Google Takeout export, or one .eml): the request streams the bytes
 * to a temporary file of our own naming (never a path from the upload), checks them and puts them in the `uploads`
 * document store with a `mail_uploads` row; the `mail_import` job — on this or any other machine — copies them to its
 * own temporary file and reads it like `invoicebox import` does. The import is idempotent, so a retried job adds
 * nothing twice; the upload is deleted once it has been read to the end.
 */
export class MailImportService {
  constructor(
    private readonly db: Db,
    /** The `uploads` namespace of the document store. */
    private readonly uploads: BlobStore,
    /** This process's own folder for temporary files (default: the system's). */
    private readonly tempDir: string,
    private readonly maxBytes: number,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
    private readonly ingest: IngestService,
  ) {}

  /** Receives an upload into the store; refuses it (and keeps nothing) beyond `maxBytes`, when empty or not mail. */
  async receive(ownerId: string, body: NodeJS.ReadableStream): Promise<string> {
    const id = randomUUID();
    const file = await this.tempFile(`${id}.upload`);
    let size = 0;
    const limit = this.maxBytes;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > limit)
          callback(new PayloadTooLargeError(`The file is larger than ${Math.round(limit / 1048576)} MB`));
        else callback(null, chunk);
      },
    });
    try {
      // The request goes through a pass-through of our own: when the limit stops the copy, pipeline destroys that,
      // not the request, so the 413 is still answered (a destroyed request aborts the reply on Node 24).
      const source = new PassThrough();
      body.pipe(source);
      try {
        await pipeline(source, counter, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      } finally {
        body.unpipe(source);
      }
      if (size === 0) throw new ValidationError('The file is empty');
      if ((await sniffUpload(file)) === 'other') {
        throw new ValidationError('This is not a mail file: upload an mbox, an .eml file or a Google Takeout .zip');
      }
      // Keyed by the upload, not its content: deleting one upload can never take another's bytes.
      const blobKey = createHash('sha256').update(id).digest('hex');
      await this.uploads.putFile(blobKey, file);
      await this.db.insert(mailUploads).values({ id, ownerId, blobKey, size });
    } finally {
      await fs.rm(file, { force: true });
    }
    return id;
  }

  /** Reads an uploaded file into the person's invoice store as the mailbox `accountEmail` (default: their own). */
  async run(
    ownerId: string,
    uploadId: string,
    accountEmail: string | undefined,
    options: { signal?: AbortSignal; progress?: (percent: number, message: string) => Promise<void> } = {},
  ): Promise<MailImportResult> {
    const upload = await this.uploadOf(ownerId, uploadId);
    if (!upload || !(await this.uploads.has(upload.blobKey))) {
      throw new NotFoundError('The uploaded file is gone; upload it again');
    }
    // The job may run on another machine than the request: it reads its own copy.
    const file = await this.tempFile(`${uploadId}.${randomUUID()}.import`);
    try {
      await pipeline(this.uploads.stream(upload.blobKey), createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      const result = await this.importFile(ownerId, file, accountEmail, options);
      await this.forget(upload);
      return result;
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  private async importFile(
    ownerId: string,
    file: string,
    accountEmail: string | undefined,
    options: { signal?: AbortSignal; progress?: (percent: number, message: string) => Promise<void> },
  ): Promise<MailImportResult> {
    const user = await this.users.findById(ownerId);
    const account = await this.accounts.connect(ownerId, {
      provider: 'mbox',
      email: accountEmail ?? user?.email ?? 'imported@localhost',
      displayName: accountEmail ? null : 'Imported mail',
    });
    let lastReport = 0;
    const kind = await sniffUpload(file);
    const messages = kind === 'zip' ? this.zipMessages(file) : readRawMailPath(file);
    const result = await this.ingest.ingest(ownerId, account.userId, keyedByContent(messages), {
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (p) => {
        // Progress is a count (an mbox has no message total before it is read); reported every 2 s at most.
        if (Date.now() - lastReport < 2000) return;
        lastReport = Date.now();
        void options.progress?.(50, `${p.seen} messages read, ${p.invoices} new invoices`).catch(() => undefined);
      },
    });
    await this.accounts.markSynced(ownerId, account.userId);
    return {
      account: account.email,
      read: result.seen,
      added: result.added,
      invoices: result.invoices,
      unreadable: result.unreadable,
    };
  }

  /**
   * The messages of the mail files in a ZIP (a Google Takeout export: `Takeout/Mail/*.mbox`), each unpacked to a file
   * of our own naming beside the upload and read from there; entry names are never used as paths. The unpacked total
   * is limited (a ZIP bomb stops with a clear error, nothing else is lost: what was read is stored).
   */
  private async *zipMessages(file: string): AsyncGenerator<RawMail> {
    // Names stay bytes: yauzl would refuse the whole ZIP for one `../` or absolute name, and we never use them as paths.
    const zip = await yauzl
      .openPromise(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true, decodeStrings: false })
      .catch((error: unknown) => {
        throw damaged(error);
      });
    const { size } = await fs.stat(file);
    const budget = Math.min(this.maxBytes * ZIP_EXPANSION_LIMIT, Math.max(ZIP_UNPACK_FLOOR, size * ZIP_RATIO_LIMIT));
    let unpacked = 0;
    let index = 0;
    try {
      if (zip.entryCount > ZIP_MAX_ENTRIES) {
        throw new ValidationError(
          `The ZIP lists ${zip.entryCount} files; a mail export has at most ${ZIP_MAX_ENTRIES}`,
        );
      }
      const entries = zip.eachEntry();
      for (;;) {
        const next = await entries.next().catch((error: unknown) => {
          throw damaged(error);
        });
        if (next.done) break;
        const entry = next.value;
        const name = (entry.fileName as unknown as Buffer).toString('utf8').toLowerCase();
        if (!/\.(mbox|mbx|eml)$/.test(name)) continue;
        // A symbolic link's "content" is a path: never mail, and never followed.
        if (((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000) continue;
        if (entry.isEncrypted()) {
          throw new ValidationError('The ZIP is encrypted: export the mail again without a password');
        }
        if (unpacked + entry.uncompressedSize > budget) {
          throw new PayloadTooLargeError(
            `The ZIP unpacks to more than ${Math.round(budget / 1048576)} MB of mail (a ZIP bomb, or not a mail export)`,
          );
        }
        unpacked += entry.uncompressedSize;
        const part = `${file}.${++index}.${name.endsWith('.eml') ? 'eml' : 'mbox'}`;
        try {
          await pipeline(
            await zip.openReadStreamPromise(entry).catch((error: unknown) => {
              throw damaged(error);
            }),
            createWriteStream(part, { flags: 'wx', mode: 0o600 }),
          ).catch((error: unknown) => {
            throw error instanceof AppError ? error : damaged(error);
          });
          yield* readRawMailPath(part);
        } finally {
          await fs.rm(part, { force: true });
        }
      }
    } finally {
      zip.close();
    }
  }

  /** Removes uploads no job has read for `olderThanMs` (a job that failed for good); returns how many. */
  async sweep(olderThanMs = 7 * 24 * 60 * 60_000): Promise<number> {
    const stale = await this.db
      .select()
      .from(mailUploads)
      .where(lt(mailUploads.createdAt, new Date(Date.now() - olderThanMs)));
    for (const upload of stale) await this.forget(upload);
    // Parts of uploads whose process was killed while it stored them (object stores keep them until aborted).
    await this.uploads.sweepTemp?.();
    // Copies of processes that were killed while they read or received one.
    const dir = path.join(this.tempDir, 'invoicebox-imports');
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      const stat = await fs.stat(path.join(dir, name)).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > 24 * 60 * 60_000) await fs.rm(path.join(dir, name), { force: true });
    }
    return stale.length;
  }

  private async uploadOf(ownerId: string, uploadId: string) {
    if (!UPLOAD_ID.test(uploadId)) throw new NotFoundError('No such upload');
    const [row] = await this.db
      .select()
      .from(mailUploads)
      .where(and(eq(mailUploads.id, uploadId), eq(mailUploads.ownerId, ownerId)));
    return row;
  }

  /** Deletes the bytes, then the row (a crash in between leaves a row that `sweep` removes later). */
  private async forget(upload: { id: string; blobKey: string }): Promise<void> {
    await this.uploads.delete(upload.blobKey);
    await this.db.delete(mailUploads).where(eq(mailUploads.id, upload.id));
  }

  private async tempFile(name: string): Promise<string> {
    const dir = path.join(this.tempDir, 'invoicebox-imports');
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    return path.join(dir, name);
  }
}
