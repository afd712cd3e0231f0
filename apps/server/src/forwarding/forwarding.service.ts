import {
  FORWARDING_MESSAGES,
  type ForwardingConfig,
  type ForwardingConfigBody,
  type ForwardingStartResponse,
  type ForwardingStats,
  type InvoiceForwardedTo,
} from '@invoicebox/core';
import type { AccountsService } from '../accounts/accounts.service';
import { ConflictError, errorMessage } from '../errors';
import type { BlobStore } from '../invoices/blob.store';
import { buildForwardMessage } from './forward-message';
import { FORWARDING_MAX_ATTEMPTS, forwardingBackoffMs } from './forwarding.constants';
import type { ClaimedRow, ForwardingRepository } from './forwarding.repository';
import { normalizeRecipients } from './recipients';
import { type MailSender, SendError } from './sender';
import type { ResolvedSender, SenderFactory } from './sender.factory';

/** Test seams: called at the three points a crash matters (the crash-injection test kills the process there). */
export interface ForwardingHooks {
  beforeSend?(row: ClaimedRow): void | Promise<void>;
  afterSend?(row: ClaimedRow): void | Promise<void>;
  afterCommit?(row: ClaimedRow): void | Promise<void>;
}

export interface ForwardingRunOptions {
  signal?: AbortSignal;
  progress?: (percent: number, message: string) => Promise<void>;
}

export interface ForwardingRunResult {
  sent: number;
  failed: number;
  /** Found already delivered in the Sent folder after an interrupted try. */
  recovered: number;
  waiting: number;
}

/** How long a run waits in-process for rows in backoff before it ends (the next sync or Forward Now goes on). */
const MAX_IN_RUN_WAIT_MS = 60_000;

/**
 * Invoice forwarding: the config (spec §3, §5), Forward Now, the queueing after a sync, the stats, and the run that
 * sends pending outbox rows. Exactly once per (invoice, recipient): a row is committed as `sending` before the
 * provider is called, and a `sending` row found by a later run is first searched for in the sender's Sent folder by
 * its deterministic Message-ID.
 */
export class ForwardingService {
  private enqueueJob: ((ownerId: string) => Promise<string>) | undefined;

  constructor(
    private readonly repository: ForwardingRepository,
    private readonly accounts: AccountsService,
    private readonly blobs: BlobStore,
    private readonly senders: SenderFactory,
    private readonly options: { hooks?: ForwardingHooks; backoffBaseMs?: number; jobType: string } = {
      jobType: 'invoice_forwarding',
    },
  ) {}

  /** The queue is built after the services (its registry uses them): it is handed over here. */
  useQueue(enqueue: (ownerId: string) => Promise<string>): void {
    this.enqueueJob = enqueue;
  }

  async getConfig(ownerId: string): Promise<ForwardingConfig> {
    const config = await this.repository.getConfig(ownerId);
    const scope = await this.accounts.resolveAccountIds(ownerId);
    return {
      enabled: config.enabled,
      target_emails: config.targetEmails,
      enabled_at: config.enabledAt?.toISOString() ?? null,
      rule: FORWARDING_MESSAGES.rule,
      max_recipients: config.maxRecipients,
      sender: await this.senders.describe(ownerId),
      backlog: await this.repository.backlog(ownerId, config.targetEmails, scope),
    };
  }

  async updateConfig(ownerId: string, body: ForwardingConfigBody): Promise<ForwardingConfig> {
    const current = await this.repository.getConfig(ownerId);
    const recipients = normalizeRecipients(body.target_emails, current.maxRecipients);
    await this.repository.saveConfig(ownerId, body.enabled, recipients);
    return this.getConfig(ownerId);
  }

  /** 'Forward Now': queues every invoice in the account scope not yet queued for each recipient, and sends. */
  async start(ownerId: string): Promise<ForwardingStartResponse> {
    const config = await this.repository.getConfig(ownerId);
    if (!config.enabled || config.targetEmails.length === 0) throw new ConflictError(FORWARDING_MESSAGES.notEnabled);
    if (!(await this.senders.describe(ownerId)).configured) throw new ConflictError(FORWARDING_MESSAGES.noSender);
    const scope = await this.accounts.resolveAccountIds(ownerId);
    const queued = await this.repository.queue(ownerId, config.targetEmails, { accountIds: scope });
    return { job_id: await this.ensureJob(ownerId), queued };
  }

  /**
   * After a sync or an import: invoices found since forwarding was enabled are queued for every recipient, and a
   * forwarding job is started when anything waits. Nothing happens while forwarding is off, has no recipient or no
   * sender (the invoices stay in the backlog for Forward Now).
   */
  async afterSync(ownerId: string): Promise<{ queued: number; jobId?: string }> {
    const config = await this.repository.getConfig(ownerId);
    if (!config.enabled || config.targetEmails.length === 0 || !config.enabledAt) return { queued: 0 };
    if (!(await this.senders.describe(ownerId)).configured) return { queued: 0 };
    const queued = await this.repository.queue(ownerId, config.targetEmails, { since: config.enabledAt });
    if ((await this.repository.countPending(ownerId)) === 0) return { queued };
    return { queued, jobId: await this.ensureJob(ownerId) };
  }

  async stats(ownerId: string): Promise<ForwardingStats> {
    const { ids, everyAccount } = await this.accounts.resolveAccountScope(ownerId);
    const s = await this.repository.stats(ownerId, everyAccount ? undefined : ids);
    const tried = s.sent + s.failed;
    return {
      total_forwarded: s.sent,
      total_failed: s.failed,
      total_pending: s.pending,
      success_rate: tried === 0 ? 0 : Math.round((s.sent / tried) * 1000) / 10,
      last_forwarded_at: s.lastSentAt?.toISOString() ?? null,
      recent_failures: s.failures.map((f) => ({
        invoice_id: f.invoice_id,
        vendor: f.vendor,
        recipient: f.recipient,
        error: f.last_error ?? 'Failed',
        at: new Date(f.updated_at).toISOString(),
      })),
    };
  }

  /** The invoice cards' forwarded-to badges. */
  async forwardedTo(ownerId: string, invoiceIds: string[]): Promise<Map<string, InvoiceForwardedTo[]>> {
    const rows = await this.repository.forwardedTo(ownerId, invoiceIds);
    return new Map(
      [...rows].map(([id, list]) => [
        id,
        list.map((r) => ({
          recipient: r.recipient,
          status: r.status,
          sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
          error: r.last_error,
        })),
      ]),
    );
  }

  /**
   * The job: sends the owner's pending rows one at a time until none is left (waiting up to a minute for rows in
   * backoff). Safe to run again from the start at any point.
   */
  async run(ownerId: string, jobId: string, options: ForwardingRunOptions = {}): Promise<ForwardingRunResult> {
    const result: ForwardingRunResult = { sent: 0, failed: 0, recovered: 0, waiting: 0 };
    const resolved = await this.senders.open(ownerId);
    if (!resolved) {
      result.waiting = await this.repository.countPending(ownerId);
      throw new ConflictError(FORWARDING_MESSAGES.noSender);
    }
    const total = Math.max(1, await this.repository.countPending(ownerId));
    let done = 0;
    const hooks = this.options.hooks ?? {};
    try {
      for (;;) {
        options.signal?.throwIfAborted();
        const row = await this.repository.claim(ownerId, jobId, resolved.sender.kind);
        if (!row) {
          const next = await this.repository.nextWaiting(ownerId);
          result.waiting = next.waiting;
          const waitMs = next.at ? next.at.getTime() - Date.now() : Number.POSITIVE_INFINITY;
          if (next.waiting === 0 || waitMs > MAX_IN_RUN_WAIT_MS) break;
          await sleep(Math.max(200, Math.min(waitMs, 5_000)), options.signal);
          continue;
        }
        await this.sendOne(ownerId, jobId, row, resolved, hooks, result);
        done += 1;
        await options.progress?.(
          Math.min(99, (done / total) * 100),
          `Forwarded ${result.sent + result.recovered} of ${total}${result.failed ? `, ${result.failed} failed` : ''}`,
        );
      }
    } finally {
      await resolved.sender.close().catch(() => undefined);
    }
    return result;
  }

  private async sendOne(
    ownerId: string,
    jobId: string,
    row: ClaimedRow,
    resolved: ResolvedSender,
    hooks: ForwardingHooks,
    result: ForwardingRunResult,
  ): Promise<void> {
    const { sender } = resolved;
    try {
      // A try that may have reached the provider (a crash after the send, a dropped connection): look first.
      if (row.previousStatus === 'sending') {
        const found = await sender.findSent(row.messageId).catch((error: unknown) => {
          throw new SendError(`Could not search the Sent folder: ${errorMessage(error)}`, 'unknown', { cause: error });
        });
        if (found) {
          if (await this.repository.markSent(ownerId, row.id, jobId)) result.recovered += 1;
          return;
        }
      }
      const raw = await this.buildMail(ownerId, row, sender, resolved.replyTo);
      if (!raw) {
        await this.repository.markFailed(ownerId, row.id, jobId, 'The invoice or its email no longer exists');
        result.failed += 1;
        return;
      }
      await hooks.beforeSend?.(row);
      await sender.send({ from: sender.from, to: row.recipient, messageId: row.messageId, raw });
      await hooks.afterSend?.(row);
      await this.repository.markSent(ownerId, row.id, jobId);
      result.sent += 1;
      await hooks.afterCommit?.(row);
    } catch (error) {
      if (!(error instanceof SendError)) throw error;
      if (error.kind === 'permanent' || row.attempts >= FORWARDING_MAX_ATTEMPTS) {
        await this.repository.markFailed(ownerId, row.id, jobId, error.message);
        result.failed += 1;
        return;
      }
      await this.repository.retryLater(
        ownerId,
        row.id,
        jobId,
        errorMessage(error),
        forwardingBackoffMs(row.attempts, this.options.backoffBaseMs),
        error.kind === 'unknown',
      );
    }
  }

  private async buildMail(ownerId: string, row: ClaimedRow, sender: MailSender, replyTo: string | null) {
    const invoice = await this.repository.invoiceForMail(ownerId, row.invoiceId);
    if (!invoice) return undefined;
    const raw = invoice.raw_sha256 ? await this.blobs.get(invoice.raw_sha256) : null;
    const attachments = raw
      ? []
      : await Promise.all(
          invoice.files.map(async (f) => ({
            filename: f.filename,
            contentType: f.content_type,
            content: await this.blobs.get(f.sha256),
          })),
        );
    return buildForwardMessage(
      {
        invoiceId: invoice.id,
        vendor: invoice.vendor,
        amount: invoice.amount,
        invoiceDate: invoice.invoice_date,
        subject: invoice.subject,
        senderEmail: invoice.sender_email,
        raw,
        attachments,
      },
      { from: sender.from, to: row.recipient, replyTo, messageId: row.messageId },
    );
  }

  private async ensureJob(ownerId: string): Promise<string> {
    const active = await this.repository.queuedJob(ownerId, this.options.jobType);
    if (active) return active;
    if (!this.enqueueJob) throw new Error('ForwardingService.useQueue() first');
    return this.enqueueJob(ownerId);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
