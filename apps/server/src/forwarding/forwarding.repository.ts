import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { uuidArray } from '../db/sql-arrays';
import { boundedText } from '../db/storable-text';
import { FORWARDING_DEFAULT_MAX_RECIPIENTS } from './forwarding.constants';
import { forwardingConfig } from './forwarding.tables';

export interface ConfigRow {
  enabled: boolean;
  targetEmails: string[];
  enabledAt: Date | null;
  maxRecipients: number;
}

/** A text[] parameter (one bound value): each element quoted, so commas and quotes in addresses stay inside it. */
const textArray = (items: readonly string[]) =>
  sql`${`{${items.map((item) => `"${item.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;

/** A row taken to `sending`, with what it was before (a `sending` row may have been handed to the provider). */
export interface ClaimedRow {
  id: string;
  invoiceId: string;
  recipient: string;
  messageId: string;
  attempts: number;
  previousStatus: 'pending' | 'sending';
  previousSender: string | null;
}

/** The SQL of forwarding; every statement is scoped to one owner. */
export class ForwardingRepository {
  constructor(private readonly db: Db) {}

  async getConfig(ownerId: string): Promise<ConfigRow> {
    const [row] = await this.db.select().from(forwardingConfig).where(eq(forwardingConfig.ownerId, ownerId));
    return row
      ? {
          enabled: row.enabled,
          targetEmails: row.targetEmails,
          enabledAt: row.enabledAt,
          maxRecipients: row.maxRecipients,
        }
      : { enabled: false, targetEmails: [], enabledAt: null, maxRecipients: FORWARDING_DEFAULT_MAX_RECIPIENTS };
  }

  /**
   * Saves the config; `enabled_at` moves to now only when forwarding goes from off to on. Queued mails that were not
   * tried yet are dropped when forwarding is switched off or their recipient removed (a mail being sent finishes).
   */
  async saveConfig(ownerId: string, enabled: boolean, targetEmails: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`
        delete from forwarding_outbox
        where owner_id = ${ownerId} and status = 'pending'
          and (${!enabled} or not (recipient = any(${textArray(targetEmails)})))`);
      await this.upsertConfig(tx, ownerId, enabled, targetEmails);
    });
  }

  private async upsertConfig(
    db: Pick<Db, 'insert'>,
    ownerId: string,
    enabled: boolean,
    targetEmails: string[],
  ): Promise<void> {
    await db
      .insert(forwardingConfig)
      .values({ ownerId, enabled, targetEmails, enabledAt: enabled ? sql`now()` : null })
      .onConflictDoUpdate({
        target: forwardingConfig.ownerId,
        set: {
          enabled,
          targetEmails,
          enabledAt: enabled
            ? sql`case when ${forwardingConfig.enabled} then ${forwardingConfig.enabledAt} else now() end`
            : sql`${forwardingConfig.enabledAt}`,
          updatedAt: sql`now()`,
        },
      });
  }

  /**
   * Queues the owner's invoices for each recipient, once: the unique key (owner, invoice, recipient) makes a second
   * call (a sync and Forward Now at once, a rerun after a crash) a no-op. The Message-ID is computed here the same
   * way as `forwardingMessageId`. Returns how many rows were added.
   */
  async queue(
    ownerId: string,
    recipients: string[],
    filter: { since?: Date | null; accountIds?: string[] | undefined },
  ): Promise<number> {
    if (recipients.length === 0) return 0;
    const since = filter.since ? sql`and i.created_at >= ${filter.since.toISOString()}::timestamptz` : sql``;
    const accounts = filter.accountIds ? sql`and i.account_ids && ${uuidArray(filter.accountIds)}` : sql``;
    const result = await this.db.execute(sql`
      insert into forwarding_outbox (owner_id, invoice_id, recipient, message_id)
      select i.owner_id, i.id, r.recipient,
             '<fwd-' || left(encode(sha256(convert_to(i.id::text || E'\n' || r.recipient, 'UTF8')), 'hex'), 32)
               || '@invoicebox>'
      from invoices i cross join unnest(${textArray(recipients)}) as r(recipient)
      where i.owner_id = ${ownerId} ${since} ${accounts}
      order by i.created_at, i.id
      on conflict (owner_id, invoice_id, recipient) do nothing`);
    return result.rowCount ?? 0;
  }

  /**
   * Takes the next row to send and marks it `sending` for this job, in one statement (SKIP LOCKED: workers of the
   * same owner never take the same row). A `sending` row is taken over only by a later delivery of the job that
   * took it (its worker died) or once that job no longer runs.
   */
  async claim(ownerId: string, jobId: string, senderKind: string): Promise<ClaimedRow | undefined> {
    const result = await this.db.execute(sql`
      with c as (
        select o.id, o.status as previous_status, o.sender_kind as previous_sender
        from forwarding_outbox o
        where o.owner_id = ${ownerId} and o.next_attempt_at <= now()
          and (o.status = 'pending'
               or (o.status = 'sending'
                   and (o.claimed_by = ${jobId}::uuid or o.claimed_by is null
                        or not exists (select 1 from jobs j where j.id = o.claimed_by and j.status = 'running'))))
        order by o.created_at, o.id
        limit 1
        for update of o skip locked
      )
      update forwarding_outbox o
      set status = 'sending', attempts = o.attempts + 1, sender_kind = ${senderKind}, claimed_by = ${jobId}::uuid,
          updated_at = now()
      from c where o.id = c.id
      returning o.id, o.invoice_id, o.recipient, o.message_id, o.attempts, c.previous_status, c.previous_sender`);
    const row = result.rows[0] as Record<string, unknown> | undefined;
    if (!row) return undefined;
    return {
      id: String(row.id),
      invoiceId: String(row.invoice_id),
      recipient: String(row.recipient),
      messageId: String(row.message_id),
      attempts: Number(row.attempts),
      previousStatus: row.previous_status as 'pending' | 'sending',
      previousSender: (row.previous_sender as string | null) ?? null,
    };
  }

  /** The earliest time a row of this owner becomes sendable again, if any is waiting (backoff, another job's row). */
  async nextWaiting(ownerId: string): Promise<{ at: Date | null; waiting: number }> {
    const result = await this.db.execute(sql`
      select min(next_attempt_at) as at, count(*)::int as waiting
      from forwarding_outbox where owner_id = ${ownerId} and status in ('pending', 'sending')`);
    const row = result.rows[0] as { at: string | Date | null; waiting: number };
    return { at: row.at ? new Date(row.at) : null, waiting: Number(row.waiting) };
  }

  async markSent(ownerId: string, id: string, jobId: string): Promise<boolean> {
    const result = await this.db.execute(sql`
      update forwarding_outbox set status = 'sent', sent_at = now(), last_error = null, updated_at = now()
      where owner_id = ${ownerId} and id = ${id} and status = 'sending' and claimed_by = ${jobId}::uuid`);
    return (result.rowCount ?? 0) > 0;
  }

  async markFailed(ownerId: string, id: string, jobId: string, error: string): Promise<void> {
    await this.db.execute(sql`
      update forwarding_outbox set status = 'failed', last_error = ${boundedText(error, 2000)}, updated_at = now()
      where owner_id = ${ownerId} and id = ${id} and status = 'sending' and claimed_by = ${jobId}::uuid`);
  }

  /**
   * A try that did not go through: back to `pending` (the provider surely did not take it) or left `sending` (it may
   * have: the Sent folder is searched before the next try), either way not before `delayMs`.
   */
  async retryLater(
    ownerId: string,
    id: string,
    jobId: string,
    error: string,
    delayMs: number,
    mayHaveBeenSent: boolean,
  ): Promise<void> {
    await this.db.execute(sql`
      update forwarding_outbox
      set status = ${mayHaveBeenSent ? 'sending' : 'pending'}, last_error = ${boundedText(error, 2000)},
          next_attempt_at = now() + ${`${Math.round(delayMs)} milliseconds`}::interval, updated_at = now()
      where owner_id = ${ownerId} and id = ${id} and status = 'sending' and claimed_by = ${jobId}::uuid`);
  }

  /** The invoice and its original message, for the mail to build. */
  async invoiceForMail(ownerId: string, invoiceId: string) {
    const result = await this.db.execute(sql`
      select i.id, i.vendor, i.amount, i.invoice_date, m.id as message_row_id, m.subject, m.sender_email, m.raw_sha256
      from invoices i join mail_messages m on m.id = i.message_row_id
      where i.owner_id = ${ownerId} and i.id = ${invoiceId}`);
    const row = result.rows[0] as
      | {
          id: string;
          vendor: string | null;
          amount: string | null;
          invoice_date: string | null;
          message_row_id: string;
          subject: string | null;
          sender_email: string | null;
          raw_sha256: string | null;
        }
      | undefined;
    if (!row) return undefined;
    const files = row.raw_sha256
      ? []
      : ((
          await this.db.execute(sql`
            select sha256, filename, content_type from message_attachments
            where message_row_id = ${row.message_row_id} order by position`)
        ).rows as Array<{ sha256: string; filename: string; content_type: string }>);
    return { ...row, files };
  }

  /** Stats of spec §3 from the outbox, for the invoices seen through the given accounts (undefined: all). */
  async stats(ownerId: string, accountIds: string[] | undefined) {
    const scope = accountIds
      ? sql`and exists (select 1 from invoices i where i.id = o.invoice_id and i.account_ids && ${uuidArray(accountIds)})`
      : sql``;
    const result = await this.db.execute(sql`
      select count(*) filter (where status = 'sent')::int as sent,
             count(*) filter (where status = 'failed')::int as failed,
             count(*) filter (where status in ('pending', 'sending'))::int as pending,
             max(sent_at) as last_sent_at
      from forwarding_outbox o where o.owner_id = ${ownerId} ${scope}`);
    const row = result.rows[0] as { sent: number; failed: number; pending: number; last_sent_at: string | Date | null };
    const failures = await this.db.execute(sql`
      select o.invoice_id, i.vendor, o.recipient, o.last_error, o.updated_at
      from forwarding_outbox o join invoices i on i.id = o.invoice_id
      where o.owner_id = ${ownerId} and o.status = 'failed' ${scope}
      order by o.updated_at desc limit 10`);
    return {
      sent: Number(row.sent),
      failed: Number(row.failed),
      pending: Number(row.pending),
      lastSentAt: row.last_sent_at ? new Date(row.last_sent_at) : null,
      failures: failures.rows as Array<{
        invoice_id: string;
        vendor: string | null;
        recipient: string;
        last_error: string | null;
        updated_at: string | Date;
      }>,
    };
  }

  /**
   * Invoices in scope that are not queued (in any state) for every current recipient: what Forward Now would add.
   */
  async backlog(ownerId: string, recipients: string[], accountIds: string[] | undefined): Promise<number> {
    if (recipients.length === 0) return 0;
    const accounts = accountIds ? sql`and i.account_ids && ${uuidArray(accountIds)}` : sql``;
    const result = await this.db.execute(sql`
      select count(*)::int as n from invoices i
      where i.owner_id = ${ownerId} ${accounts}
        and (select count(*) from forwarding_outbox o
             where o.owner_id = ${ownerId} and o.invoice_id = i.id and o.recipient = any(${textArray(recipients)}))
            < ${recipients.length}`);
    return Number((result.rows[0] as { n: number }).n);
  }

  /** Per invoice: to whom it was forwarded or is queued (the invoice card's badge). */
  async forwardedTo(ownerId: string, invoiceIds: string[]) {
    if (invoiceIds.length === 0) return new Map<string, ForwardedToRow[]>();
    const result = await this.db.execute(sql`
      select invoice_id, recipient, status, sent_at, last_error from forwarding_outbox
      where owner_id = ${ownerId} and invoice_id = any(${uuidArray(invoiceIds)})
      order by recipient`);
    const map = new Map<string, ForwardedToRow[]>();
    for (const row of result.rows as unknown as Array<ForwardedToRow & { invoice_id: string }>) {
      const list = map.get(row.invoice_id) ?? [];
      list.push(row);
      map.set(row.invoice_id, list);
    }
    return map;
  }

  /**
   * A forwarding job of this owner that has not started yet (it will see every row queued now). A running one may be
   * about to finish without seeing them, so it does not count.
   */
  async queuedJob(ownerId: string, type: string): Promise<string | undefined> {
    const result = await this.db.execute(sql`
      select id from jobs where owner_id = ${ownerId} and type = ${type} and status = 'pending'
      order by created_at desc limit 1`);
    return (result.rows[0] as { id: string } | undefined)?.id;
  }

  async countPending(ownerId: string): Promise<number> {
    const result = await this.db.execute(sql`
      select count(*)::int as n from forwarding_outbox where owner_id = ${ownerId} and status in ('pending', 'sending')`);
    return Number((result.rows[0] as { n: number }).n);
  }
}

export interface ForwardedToRow {
  recipient: string;
  status: 'pending' | 'sending' | 'sent' | 'failed';
  sent_at: string | Date | null;
  last_error: string | null;
}
