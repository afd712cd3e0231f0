import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DriveConnection, DriveConnectionBody, DriveStatusResponse } from '@invoicebox/core';
import { and, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import type { SecretBox } from '../auth/secret-box';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { uuidArray } from '../db/sql-arrays';
import { AppError, NotFoundError, UnprocessableError } from '../errors';
import { type BlobStore, MissingBlobError } from '../invoices/blob.store';
import { invoiceHasDocument, invoices } from '../invoices/invoices.tables';
import { ConnectionFailedError } from '../net/outbound';
import {
  DriveAuthError,
  DriveFileNotFoundError,
  type DriveOpenResult,
  type DriveStore,
  DriveUnavailableError,
} from './drive.store';
import { type DriveConnectionRow, driveConnections, driveLinkUses } from './drive.tables';
import { invoiceDocuments } from './drive-naming';

const PASSWORD_CONTEXT = 'drive_connections.webdav_password';
const LINK_CONTEXT = 'drive.open-link';
/** How long a link made for the Drive button opens the file (it is opened at once by the browser that asked). */
const LINK_SECONDS = 60;
/** Opened links are remembered this long after they expired (room for clocks of several machines that disagree). */
const LINK_USE_KEEP = sql`interval '10 minutes'`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PAGE = 100;
/** Shown on the drive card when the local folder is chosen while processes may run on several machines. */
export const LOCAL_DRIVE_SHARED_WARNING =
  'A folder on this machine: workers on other machines cannot write to it. With an external database, job ' +
  'workers may run elsewhere, and an upload that runs there files into that machine’s folder or fails. Choose ' +
  'Google Drive or a WebDAV server, or run every worker on this machine.';
const WEBDAV_UNREACHABLE =
  'Could not reach the drive: check the WebDAV address, user name and password. Servers on this machine or a ' +
  'private network can be used only where the operator allows them.';

/** What a drive is built from; `target` names it on the invoices it holds (`local`, `webdav:<url>`, `google:<id>`). */
export type DriveTarget =
  | { kind: 'local'; root: string }
  | { kind: 'webdav'; url: string; username: string; password: string }
  | { kind: 'google'; accountId: string; ownerId: string };

export type DriveFactory = (target: DriveTarget) => DriveStore;

export interface DriveUploadSummary {
  /** Files written to the drive. */
  uploaded: number;
  /** Files that were already in the drive (same content) and were linked. */
  linked: number;
  /** Invoices that could not be filed (reason on the invoice). */
  failed: number;
  /** Invoices handled in this run. */
  invoices: number;
  drive: string;
}

interface UploadRow {
  id: string;
  dedupe_key: string;
  vendor: string | null;
  invoice_number: string | null;
  invoice_date: string | null;
  sent_at: Date | string | null;
  created_at: Date | string;
  files: Array<{ sha256: string; filename: string; size: number; content_type: string }> | null;
}

/**
 * Files invoices into the person's drive (spec §1: folders by date, no duplicates) and answers what the Drive screens
 * ask. Which drive is decided here (Settings, default the local folder); how a drive stores files and finds duplicates
 * is the adapter's (drive.store.ts). An invoice is `uploaded` with the drive file id of its main document once every
 * qualifying attachment is in the drive; the drive's own duplicate check makes a rerun after a crash link, not copy.
 */
export class DriveService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsService,
    private readonly blobs: BlobStore,
    private readonly box: SecretBox,
    private readonly dataDir: string,
    private readonly createStore: DriveFactory,
    /**
     * `sharedDatabase`: the database is external (DATABASE_URL), so API and worker processes may run on several
     * machines, and a local-folder drive is one machine's folder only.
     */
    private readonly options: { sharedDatabase?: boolean } = {},
  ) {}

  // ---- connection (Settings) ----

  async connection(ownerId: string): Promise<DriveConnection> {
    const row = await this.row(ownerId);
    const target = await this.targetOf(ownerId, row, undefined).catch(() => null);
    const googleAccountId = target?.kind === 'google' ? target.accountId : null;
    const google = googleAccountId
      ? (await this.accounts.list(ownerId)).accounts.find((a) => a.userId === googleAccountId)
      : undefined;
    return {
      kind: row?.kind ?? 'local',
      root: target ? this.describe(target) : 'Google Drive (no Google account connected)',
      google_account: google ? { id: google.userId, email: google.email } : null,
      webdav: row?.kind === 'webdav' ? { url: row.webdavUrl ?? '', username: row.webdavUsername ?? '' } : null,
    };
  }

  /** Chooses the drive. The drive is tried first with the given credentials: a typo is caught here, not in a job. */
  async configure(ownerId: string, body: DriveConnectionBody): Promise<DriveConnection> {
    const values: Omit<DriveConnectionRow, 'updatedAt'> = {
      ownerId,
      kind: body.kind,
      googleAccountId: null,
      webdavUrl: null,
      webdavUsername: null,
      webdavPasswordEncrypted: null,
    };
    if (body.kind === 'google') {
      const account = body.account_id ? await this.googleAccount(ownerId, body.account_id) : undefined;
      values.googleAccountId = account?.userId ?? null;
    }
    if (body.kind === 'webdav') {
      values.webdavUrl = body.url;
      values.webdavUsername = body.username;
      values.webdavPasswordEncrypted = this.box.encrypt(body.password, PASSWORD_CONTEXT);
    }
    const target = await this.targetOf(ownerId, { ...values, updatedAt: new Date() }, undefined);
    try {
      await (await this.store(target)).check();
    } catch (error) {
      // One answer for every failure on a server the person named: a refused port, a time-out, a server that is not
      // WebDAV, a missing folder and a wrong password must not be told apart (the log has the reason).
      if (target.kind === 'webdav') throw new ConnectionFailedError(WEBDAV_UNREACHABLE, error);
      // 422, not 401/503: the settings are wrong or the drive is unreachable; the person's session is fine.
      throw new UnprocessableError(`Could not reach the drive: ${(error as Error).message}`);
    }
    await this.db
      .insert(driveConnections)
      .values(values)
      .onConflictDoUpdate({ target: driveConnections.ownerId, set: { ...values, updatedAt: sql`now()` } });
    return this.connection(ownerId);
  }

  // ---- status (POST /sync/drive/status) ----

  async status(ownerId: string): Promise<DriveStatusResponse> {
    const row = await this.row(ownerId);
    let root = 'Google Drive';
    let reachable = false;
    let error: string | null = null;
    try {
      const target = await this.targetOf(ownerId, row, undefined);
      root = this.describe(target);
      root = (await (await this.store(target)).check()).root;
      reachable = true;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const list = await this.accounts.list(ownerId);
    const counts = (
      await this.db.execute(sql`
        select a.id as account_id,
               count(i.id) filter (where i.status = 'uploaded')::int as uploaded,
               count(i.id) filter (where i.status = 'pending')::int as pending,
               count(i.id) filter (where i.status = 'failed')::int as failed
        from mail_accounts a
        left join invoices i on i.owner_id = a.owner_id and a.id = any(i.account_ids) and ${invoiceHasDocument()}
          and invoice_counts(i.document_type)
        where a.owner_id = ${ownerId}
        group by a.id`)
    ).rows as Array<{ account_id: string; uploaded: number; pending: number; failed: number }>;
    const [totals] = (
      await this.db.execute(sql`
        select count(*) filter (where status = 'uploaded')::int as uploaded,
               count(*) filter (where status = 'pending')::int as pending,
               count(*) filter (where status = 'failed')::int as failed
        from invoices i where i.owner_id = ${ownerId} and ${invoiceHasDocument()} and invoice_counts(i.document_type)`)
    ).rows as Array<{ uploaded: number; pending: number; failed: number }>;
    const byId = new Map(counts.map((c) => [c.account_id, c]));
    const kind = row?.kind ?? 'local';
    const warning = kind === 'local' && this.options.sharedDatabase ? LOCAL_DRIVE_SHARED_WARNING : null;
    return {
      drive: { kind, root, reachable, error, warning },
      accounts: list.accounts.map((a) => ({
        account_id: a.userId,
        email: a.email,
        is_primary: a.isPrimary,
        uploaded: byId.get(a.userId)?.uploaded ?? 0,
        pending: byId.get(a.userId)?.pending ?? 0,
        failed: byId.get(a.userId)?.failed ?? 0,
      })),
      totals: totals ?? { uploaded: 0, pending: 0, failed: 0 },
    };
  }

  // ---- upload (the drive_upload job and full_sync's last step) ----

  /**
   * Files every invoice with documents of the given accounts that is not yet in the current drive. A drive outage or
   * refused credentials stop the run (the rest stays pending for the next one); a file-level problem fails only its
   * invoice, with the reason kept on it.
   */
  async upload(
    ownerId: string,
    options: {
      accountIds?: string[] | undefined;
      targetAccountId?: string | undefined;
      signal?: AbortSignal;
      progress?: (percent: number, message: string) => Promise<void>;
    } = {},
  ): Promise<DriveUploadSummary> {
    const accountIds = await this.accounts.resolveAccountIds(ownerId, options.accountIds);
    const target = await this.targetOf(ownerId, await this.row(ownerId), options.targetAccountId);
    const store = await this.store(target);
    const targetKey = targetKeyOf(target);
    const summary: DriveUploadSummary = {
      uploaded: 0,
      linked: 0,
      failed: 0,
      invoices: 0,
      drive: this.describe(target),
    };
    if (accountIds.length === 0) return summary;
    // Only invoices, credit notes and receipts are filed: an order confirmation or a contract is listed, not filed.
    const pendingWhere = sql`i.owner_id = ${ownerId} and i.account_ids && ${uuidArray(accountIds)} and ${invoiceHasDocument()}
      and invoice_counts(i.document_type)
      and (i.status <> 'uploaded' or i.drive_target is distinct from ${targetKey})`;
    const [{ total } = { total: 0 }] = (
      await this.db.execute(sql`select count(*)::int as total from invoices i where ${pendingWhere}`)
    ).rows as Array<{ total: number }>;
    await options.progress?.(0, total === 0 ? 'Every invoice is already in the drive' : `Filing ${total} invoice(s)`);
    try {
      await this.uploadPages(ownerId, pendingWhere, total, store, targetKey, summary, options);
    } catch (error) {
      // Google refusing the grant means the account needs a new sign-in, shown in Settings like a mail failure.
      if (error instanceof DriveAuthError && target.kind === 'google') {
        await this.accounts.markNeedsReauth(ownerId, target.accountId, error.message);
      }
      throw error;
    }
    return summary;
  }

  private async uploadPages(
    ownerId: string,
    pendingWhere: SQL,
    total: number,
    store: DriveStore,
    targetKey: string,
    summary: DriveUploadSummary,
    options: { signal?: AbortSignal; progress?: (percent: number, message: string) => Promise<void> },
  ): Promise<void> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = (
        await this.db.execute(sql`
          select i.id, i.dedupe_key, i.vendor, i.invoice_number, i.invoice_date, i.created_at, m.sent_at,
                 (select json_agg(json_build_object('sha256', a.sha256, 'filename', a.filename, 'size', a.size,
                                                    'content_type', a.content_type) order by a.position)
                  from message_attachments a where a.message_row_id = i.message_row_id and a.qualifies) as files
          from invoices i join mail_messages m on m.id = i.message_row_id
          where ${pendingWhere} and i.id > ${after}::uuid
          order by i.id limit ${PAGE}`)
      ).rows as unknown as UploadRow[];
      if (rows.length === 0) break;
      for (const row of rows) {
        options.signal?.throwIfAborted();
        after = row.id;
        await this.uploadOne(ownerId, row, store, targetKey, summary);
        summary.invoices += 1;
        await options.progress?.(
          Math.min(99, (summary.invoices / Math.max(1, total)) * 100),
          `Filed ${summary.invoices} of ${total} invoice(s)`,
        );
      }
    }
  }

  private async uploadOne(
    ownerId: string,
    row: UploadRow,
    store: DriveStore,
    targetKey: string,
    summary: DriveUploadSummary,
  ): Promise<void> {
    const { folder, documents } = invoiceDocuments(
      {
        invoiceDate: row.invoice_date,
        vendor: row.vendor,
        invoiceNumber: row.invoice_number,
        mailDate: row.sent_at ?? row.created_at,
        mainSha256: row.dedupe_key,
      },
      row.files ?? [],
    );
    let mainId: string | null = null;
    try {
      for (const { file, name, main } of documents) {
        const result = await store.upload({
          folder,
          name,
          sha256: file.sha256,
          size: Number(file.size),
          contentType: file.content_type,
          invoiceId: row.id,
          open: () => this.blobs.stream(file.sha256),
        });
        if (result.created) summary.uploaded += 1;
        else summary.linked += 1;
        if (main) mainId = result.file.id;
      }
      if (!mainId) throw new AppError('The invoice has no document to file', { code: 'no_document', status: 422 });
      await this.db
        .update(invoices)
        .set({ status: 'uploaded', driveFileId: mainId, driveTarget: targetKey, driveError: null })
        .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, row.id)));
    } catch (error) {
      // The drive itself failing stops the run: every next file would fail the same way.
      if (error instanceof DriveUnavailableError || error instanceof DriveAuthError) throw error;
      if (error instanceof Error && error.name === 'AbortError') throw error;
      summary.failed += 1;
      const missing = error instanceof MissingBlobError || (error as NodeJS.ErrnoException).code === 'ENOENT';
      const reason = missing ? 'The file is missing from storage' : null;
      await this.db
        .update(invoices)
        .set({ status: 'failed', driveError: (reason ?? (error as Error).message).slice(0, 500) })
        .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, row.id)));
    }
  }

  // ---- the Drive button ----

  /** Where the Drive button of one of the person's invoices goes. */
  async link(ownerId: string, invoiceId: string): Promise<{ url: string }> {
    const [invoice] = await this.db
      .select({ fileId: invoices.driveFileId, target: invoices.driveTarget })
      .from(invoices)
      .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, invoiceId)));
    if (!invoice?.fileId) throw new NotFoundError('This invoice is not in the drive yet');
    const opened = await this.openOn(ownerId, invoice.target, invoice.fileId, true);
    if (opened.kind === 'redirect') return { url: opened.url };
    const token = this.box.encrypt(
      JSON.stringify({ o: ownerId, i: invoiceId, e: Date.now() + LINK_SECONDS * 1000, n: randomUUID() }),
      LINK_CONTEXT,
    );
    // Relative: the browser opens it on the origin it talks to (whatever proxy is in front).
    return { url: `/api/v1/drive/open?link=${encodeURIComponent(token)}` };
  }

  /**
   * Opens the file behind a link made by `link` (no session: the link is the proof). A link opens its file once, within
   * a minute: a link copied from a log, a history or a shoulder is worth nothing afterwards.
   */
  async openLink(token: string): Promise<DriveOpenResult> {
    let claims: { o: string; i: string; e: number; n: string };
    try {
      claims = JSON.parse(this.box.decrypt(token, LINK_CONTEXT));
    } catch {
      throw new DriveFileNotFoundError();
    }
    if (!claims || typeof claims.e !== 'number' || claims.e < Date.now()) throw new DriveFileNotFoundError();
    if (typeof claims.n !== 'string' || !UUID.test(claims.n) || !(await this.useLink(claims))) {
      throw new DriveFileNotFoundError();
    }
    const [invoice] = await this.db
      .select({ fileId: invoices.driveFileId, target: invoices.driveTarget })
      .from(invoices)
      .where(and(eq(invoices.ownerId, claims.o), eq(invoices.id, claims.i)));
    if (!invoice?.fileId) throw new DriveFileNotFoundError();
    return this.openOn(claims.o, invoice.target, invoice.fileId, false);
  }

  /** Marks a link as opened; false when it already was (here or by another process: the row's key decides). */
  private async useLink(claims: { o: string; e: number; n: string }): Promise<boolean> {
    await this.db.delete(driveLinkUses).where(lt(driveLinkUses.expiresAt, sql`now() - ${LINK_USE_KEEP}`));
    const used = await this.db
      .insert(driveLinkUses)
      .values({ id: claims.n, ownerId: claims.o, expiresAt: new Date(claims.e) })
      .onConflictDoNothing()
      .returning({ id: driveLinkUses.id });
    return used.length === 1;
  }

  private async openOn(ownerId: string, targetKey: string | null, fileId: string, probe: boolean) {
    const current = await this.targetOf(ownerId, await this.row(ownerId), undefined).catch(() => null);
    let target: DriveTarget | null = current && targetKeyOf(current) === targetKey ? current : null;
    if (!target && targetKey === 'local') target = { kind: 'local', root: await this.localRoot(ownerId) };
    if (!target && targetKey?.startsWith('google:')) {
      const account = await this.googleAccount(ownerId, targetKey.slice('google:'.length)).catch(() => undefined);
      if (account) target = { kind: 'google', accountId: account.userId, ownerId };
    }
    if (!target) throw new NotFoundError('The drive that holds this file is no longer connected');
    const opened = await (await this.store(target)).open(fileId);
    // Asked only to find out where the file is: a stream opened for that is not read.
    if (probe && opened.kind === 'stream') opened.stream.destroy();
    return opened;
  }

  // ---- helpers ----

  /**
   * The adapter for a target. The local folder under the data dir is ours to create on first use; an adapter itself
   * never creates its root (a missing root there means an unmounted disk, not an empty drive).
   */
  private async store(target: DriveTarget): Promise<DriveStore> {
    if (target.kind === 'local') await fs.mkdir(target.root, { recursive: true, mode: 0o700 });
    return this.createStore(target);
  }

  private async row(ownerId: string): Promise<DriveConnectionRow | undefined> {
    const [row] = await this.db.select().from(driveConnections).where(eq(driveConnections.ownerId, ownerId));
    return row;
  }

  private async googleAccount(ownerId: string, accountId: string) {
    const account = (await this.accounts.list(ownerId)).accounts.find((a) => a.userId === accountId);
    if (account?.provider !== 'google') throw new NotFoundError('No such Google account of yours');
    return account;
  }

  /** The drive to use: the stored connection; for Google Drive the requested, chosen or primary Google account. */
  private async targetOf(
    ownerId: string,
    row: DriveConnectionRow | undefined,
    targetAccountId: string | undefined,
  ): Promise<DriveTarget> {
    const kind = row?.kind ?? 'local';
    if (kind === 'webdav') {
      return {
        kind,
        url: row!.webdavUrl!,
        username: row!.webdavUsername!,
        password: this.box.decrypt(row!.webdavPasswordEncrypted!, PASSWORD_CONTEXT),
      };
    }
    if (kind === 'google') {
      if (targetAccountId)
        return { kind, accountId: (await this.googleAccount(ownerId, targetAccountId)).userId, ownerId };
      if (row?.googleAccountId) return { kind, accountId: row.googleAccountId, ownerId };
      const primary = await this.accounts.primary(ownerId);
      if (primary?.provider === 'google') return { kind, accountId: primary.userId, ownerId };
      const anyGoogle = (await this.accounts.list(ownerId)).accounts.find((a) => a.provider === 'google');
      if (anyGoogle) return { kind, accountId: anyGoogle.userId, ownerId };
      throw new UnprocessableError('Google Drive needs a connected Google account; sign in with Google first');
    }
    return { kind: 'local', root: await this.localRoot(ownerId) };
  }

  /** The owner of this installation files into `<data>/drive`; anyone else into a folder of their own. */
  private async localRoot(ownerId: string): Promise<string> {
    const [user] = await this.db.select({ isOwner: users.isLocalOwner }).from(users).where(eq(users.id, ownerId));
    return user?.isOwner ? path.join(this.dataDir, 'drive') : path.join(this.dataDir, 'drives', ownerId);
  }

  private describe(target: DriveTarget): string {
    if (target.kind === 'local') return target.root;
    if (target.kind === 'webdav') return target.url;
    return 'Google Drive';
  }
}

export function targetKeyOf(target: DriveTarget): string {
  if (target.kind === 'local') return 'local';
  if (target.kind === 'webdav') return `webdav:${target.url}`;
  return `google:${target.accountId}`;
}
