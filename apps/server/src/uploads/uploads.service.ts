import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import type { UploadFileResult, UploadResponse } from '@invoicebox/core';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import type { Db } from '../db/client';
import { NotFoundError } from '../errors';
import type { IngestItem, IngestService } from '../invoices/ingest.service';
import { invoices, mailMessages, messageAttachments } from '../invoices/invoices.tables';
import type { JobsRepository } from '../jobs/jobs.repository';
import type { UsersService } from '../users/users.service';
import { type DocumentKind, displayName, SNIFF_BYTES, sniffDocument } from './document-kind';

/** One file handed over for adding: its bytes in a file we may read (a temporary copy, or the person's own file). */
export interface AddedFile {
  /** The name as given (shown, never used as a path). */
  name: string;
  /** Where the bytes are; absent when the file was refused while it was received. */
  path?: string;
  size: number;
  /** Refused on receipt (too large while streaming). */
  refused?: { code: string; message: string };
}

/** Which way the files came, for the job history. */
export type AddedVia = 'upload' | 'cli' | 'folder';

export interface UploadsOptions {
  /** Largest file accepted (DOCUMENT_MAX_MB). */
  maxBytes: number;
  /** Told when documents were added, so that they are filed in the drive (by a drive_upload job). */
  fileInDrive?: (ownerId: string, accountId: string) => Promise<void>;
}

const NOT_A_DOCUMENT =
  'This is not a document: add a PDF, a JPEG, PNG or HEIC photo, an e-invoice XML file or a mail saved as .eml';
const AVIF = 'AVIF images cannot be read: send the photo as JPEG, PNG or HEIC';

interface Accepted {
  index: number;
  file: AddedFile & { path: string };
  kind: Exclude<DocumentKind, { kind: 'avif' } | { kind: 'other' }>;
  sha256: string;
  origin: string;
}

/**
 * Documents a person adds themselves — the web app's upload, `invoicebox add`, the inbox folder — taken into the
 * invoice store through the very ingest the mail sync uses (IngestService): the same SHA-256 dedupe (the same bytes
 * are one document whichever way they came), the blob store, extraction in the document sandbox, the §5 rules for
 * .eml files, the drive filing. They are recorded as messages of the person's Uploads source (a connected account of
 * provider `upload`), keyed `upload:<sha256>`, so that adding a file twice records it once and the account scope
 * shows or hides them like a mailbox. Each call leaves one finished `document_upload` record in the job history.
 */
export class UploadsService {
  constructor(
    private readonly db: Db,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
    private readonly ingest: IngestService,
    private readonly jobs: JobsRepository,
    private readonly options: UploadsOptions,
  ) {}

  get maxBytes(): number {
    return this.options.maxBytes;
  }

  /** Adds the files for `ownerId`; one result per file, in order. Never throws for one bad file. */
  async add(ownerId: string, files: AddedFile[], via: AddedVia, signal?: AbortSignal): Promise<UploadResponse> {
    const startedAt = new Date();
    const owner = await this.users.findById(ownerId);
    if (!owner) throw new NotFoundError('No such person');
    const results: UploadFileResult[] = files.map((f) => ({
      name: displayName(f.name),
      size: f.size,
      status: 'failed',
      code: null,
      message: '',
      sha256: null,
      invoice_id: null,
    }));
    const accepted: Accepted[] = [];
    const seen = new Map<string, number>();
    for (const [index, file] of files.entries()) {
      const result = results[index]!;
      const refusal = await this.check(file);
      if (refusal) {
        Object.assign(result, refusal);
        continue;
      }
      const kind = await this.kindOf(file.path!);
      if (kind.kind === 'other' || kind.kind === 'avif') {
        Object.assign(result, {
          code: kind.kind === 'avif' ? 'unsupported_format' : 'not_a_document',
          message: kind.kind === 'avif' ? AVIF : NOT_A_DOCUMENT,
        });
        continue;
      }
      const sha256 = await sha256Of(file.path!);
      result.sha256 = sha256;
      const earlier = seen.get(sha256);
      if (earlier !== undefined) {
        Object.assign(result, { status: 'duplicate', message: `The same file as ${results[earlier]!.name}` });
        continue;
      }
      seen.set(sha256, index);
      accepted.push({ index, file: file as Accepted['file'], kind, sha256, origin: `upload:${sha256}` });
    }

    const account = await this.accounts.uploads(ownerId, owner.email);
    if (accepted.length > 0) {
      const before = await this.known(ownerId, account.userId, accepted);
      const items = async function* (): AsyncGenerator<IngestItem> {
        for (const a of accepted) {
          const source = await fs.readFile(a.file.path);
          yield a.kind.kind === 'eml'
            ? { ok: true, origin: a.origin, source }
            : {
                ok: true,
                origin: a.origin,
                source,
                document: { filename: results[a.index]!.name, contentType: a.kind.contentType, receivedAt: startedAt },
              };
        }
      };
      await this.ingest.ingest(ownerId, account.userId, items(), signal ? { signal } : {});
      await this.outcomes(ownerId, account.userId, accepted, before, results);
    }

    const added = results.filter((r) => r.status === 'added' || r.status === 'unreadable').length;
    if (added > 0) await this.options.fileInDrive?.(ownerId, account.userId);
    const jobId = randomUUID();
    const failed = results.filter((r) => r.status === 'failed').length;
    await this.jobs.recordFinished({
      id: jobId,
      ownerId,
      type: 'document_upload',
      payload: { via, files: files.length },
      startedAt,
      status: failed > 0 && failed === files.length ? 'failed' : 'completed',
      message: summary(results, via),
    });
    return { files: results, account_id: account.userId, job_id: jobId };
  }

  private async check(file: AddedFile): Promise<Pick<UploadFileResult, 'code' | 'message'> | null> {
    if (file.refused) return file.refused;
    if (!file.path) return { code: 'unreadable', message: 'The file could not be read' };
    if (file.size === 0) return { code: 'empty', message: 'The file is empty' };
    if (file.size > this.options.maxBytes) return tooLarge(this.options.maxBytes);
    return null;
  }

  private async kindOf(path: string): Promise<DocumentKind> {
    const handle = await fs.open(path, 'r');
    try {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(SNIFF_BYTES), position: 0 });
      return sniffDocument(buffer.subarray(0, bytesRead));
    } finally {
      await handle.close();
    }
  }

  /** What was there before: documents that are invoices already, mails this source has recorded. */
  private async known(ownerId: string, accountId: string, accepted: Accepted[]) {
    const documents = await this.db
      .select({ key: invoices.dedupeKey })
      .from(invoices)
      .where(
        and(
          eq(invoices.ownerId, ownerId),
          inArray(
            invoices.dedupeKey,
            accepted.map((a) => a.sha256),
          ),
        ),
      );
    const messages = await this.db
      .select({ origin: mailMessages.origin })
      .from(mailMessages)
      .where(
        and(
          eq(mailMessages.accountId, accountId),
          inArray(
            mailMessages.origin,
            accepted.map((a) => a.origin),
          ),
        ),
      );
    return {
      invoices: new Set(documents.map((d) => d.key)),
      messages: new Set(messages.map((m) => m.origin)),
    };
  }

  /** Reads back from the store what became of each accepted file. */
  private async outcomes(
    ownerId: string,
    accountId: string,
    accepted: Accepted[],
    before: { invoices: Set<string>; messages: Set<string> },
    results: UploadFileResult[],
  ): Promise<void> {
    const rows = await this.db
      .select({
        origin: mailMessages.origin,
        rowId: mailMessages.id,
        isCandidate: mailMessages.isCandidate,
      })
      .from(mailMessages)
      .where(
        and(
          eq(mailMessages.accountId, accountId),
          inArray(
            mailMessages.origin,
            accepted.map((a) => a.origin),
          ),
        ),
      );
    const byOrigin = new Map(rows.map((r) => [r.origin, r]));
    const attachments =
      rows.length === 0
        ? []
        : await this.db
            .select({
              rowId: messageAttachments.messageRowId,
              sha256: messageAttachments.sha256,
              qualifies: messageAttachments.qualifies,
              readError: messageAttachments.readError,
            })
            .from(messageAttachments)
            .where(
              inArray(
                messageAttachments.messageRowId,
                rows.map((r) => r.rowId),
              ),
            )
            .orderBy(messageAttachments.position);
    // The document of each message: the file itself, or an .eml's first qualifying attachment.
    const documentOf = new Map<string, { sha256: string; readError: string | null }>();
    for (const a of attachments) if (a.qualifies && !documentOf.has(a.rowId)) documentOf.set(a.rowId, a);
    const keys = [...new Set([...documentOf.values()].map((d) => d.sha256))];
    // By document, or by message: an .eml whose invoice exists only as its body (its kept body is no dedupe key).
    const found =
      rows.length === 0
        ? []
        : await this.db
            .select({ id: invoices.id, key: invoices.dedupeKey, messageRowId: invoices.messageRowId })
            .from(invoices)
            .where(
              and(
                eq(invoices.ownerId, ownerId),
                or(
                  keys.length > 0 ? inArray(invoices.dedupeKey, keys) : undefined,
                  inArray(
                    invoices.messageRowId,
                    rows.map((r) => r.rowId),
                  ),
                ),
              ),
            );
    const invoiceOf = new Map(found.map((f) => [f.key, f.id]));
    const invoiceOfMessage = new Map(found.map((f) => [f.messageRowId, f.id]));
    for (const a of accepted) {
      const result = results[a.index]!;
      const row = byOrigin.get(a.origin);
      if (!row) {
        Object.assign(result, { code: 'unreadable', message: 'The mail could not be read' });
        continue;
      }
      const document = documentOf.get(row.rowId);
      const invoiceId = (document ? invoiceOf.get(document.sha256) : undefined) ?? invoiceOfMessage.get(row.rowId);
      result.invoice_id = invoiceId ?? null;
      const seenBefore = before.messages.has(a.origin) || (document && before.invoices.has(document.sha256));
      if (seenBefore && document?.readError) {
        // The same unreadable file again is still unreadable, not a silent success (the inbox folder files it
        // under failed/ with the reason).
        Object.assign(result, {
          status: 'unreadable',
          code: 'unreadable',
          message: `Already in Invoicebox, but it could not be read: ${document.readError}`,
        });
      } else if (seenBefore) {
        Object.assign(result, {
          status: 'duplicate',
          message: invoiceId ? 'Already in Invoicebox: nothing new was added' : 'Added before',
        });
      } else if (!row.isCandidate || !invoiceId) {
        Object.assign(result, {
          status: 'not_invoice',
          message: 'Stored as a mail, but the invoice rules do not take it as an invoice',
        });
      } else if (document?.readError) {
        Object.assign(result, {
          status: 'unreadable',
          code: 'unreadable',
          message: `Added, but it could not be read: ${document.readError}`,
        });
      } else {
        Object.assign(result, { status: 'added', message: 'Added' });
      }
    }
  }
}

export function tooLarge(maxBytes: number): { code: string; message: string } {
  return { code: 'too_large', message: `The file is larger than ${Math.round(maxBytes / 1048576)} MB` };
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function summary(results: UploadFileResult[], via: AddedVia): string {
  const count = (status: UploadFileResult['status']) => results.filter((r) => r.status === status).length;
  const parts = [`${count('added')} added`];
  for (const [status, label] of [
    ['duplicate', 'already there'],
    ['unreadable', 'unreadable'],
    ['not_invoice', 'not an invoice'],
    ['failed', 'refused'],
  ] as const) {
    if (count(status) > 0) parts.push(`${count(status)} ${label}`);
  }
  const how = via === 'upload' ? 'uploaded' : via === 'cli' ? 'added from the command line' : 'from the inbox folder';
  return `${results.length} file(s) ${how}: ${parts.join(', ')}`;
}
