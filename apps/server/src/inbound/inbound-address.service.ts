import { randomBytes } from 'node:crypto';
import type { InboundAddress } from '@invoicebox/core';
import { and, desc, eq, isNull, like } from 'drizzle-orm';
import { mailAccounts } from '../accounts/accounts.tables';
import type { Db } from '../db/client';
import { mailMessages } from '../invoices/invoices.tables';
import { inboundAddresses } from './inbound.tables';

/** The local part's fixed prefix; what follows the `+` names the person. */
const LOCAL_PREFIX = 'invoices+';
/** 20 hex characters: 80 random bits, case-proof (some mail systems fold the local part's case). */
const TOKEN = /^[0-9a-f]{20}$/;

function newToken(): string {
  return randomBytes(10).toString('hex');
}

export interface InboundRecipient {
  ownerId: string;
  address: string;
}

/** Why a recipient is refused: not our domain at all (a relay attempt) or ours but nobody's (unknown or retired). */
export type RecipientRefusal = 'relay' | 'unknown';

/**
 * Each person's address for mailing invoices in: created on first look, replaced by "New address" (the old one is
 * refused from then on), and resolved back to its person by the SMTP listener.
 */
export class InboundAddressService {
  private readonly domain: string | undefined;

  constructor(
    private readonly db: Db,
    /** SMTP_INBOUND_DOMAIN, or undefined when the listener is off. */
    domain: string | undefined,
  ) {
    this.domain = domain?.toLowerCase();
  }

  get enabled(): boolean {
    return this.domain !== undefined;
  }

  /** The person's current address (made on first call), or `enabled: false` when the listener is off. */
  async current(ownerId: string): Promise<InboundAddress> {
    if (!this.domain) return { enabled: false, address: null, created_at: null, recent: [] };
    const existing = await this.currentRow(ownerId);
    if (existing) return this.view(existing, await this.recent(ownerId));
    // Two first visits at once: the partial unique index keeps one; both read it back.
    await this.db.insert(inboundAddresses).values({ ownerId, token: newToken() }).onConflictDoNothing();
    const made = await this.currentRow(ownerId);
    if (!made) throw new Error('inbound address was not created');
    return this.view(made, await this.recent(ownerId));
  }

  /** Retires the current address and makes a new one; mail to the old one is refused from now on. */
  async rotate(ownerId: string): Promise<InboundAddress> {
    if (!this.domain) return { enabled: false, address: null, created_at: null, recent: [] };
    const row = await this.db.transaction(async (tx) => {
      await tx
        .update(inboundAddresses)
        .set({ retiredAt: new Date() })
        .where(and(eq(inboundAddresses.ownerId, ownerId), isNull(inboundAddresses.retiredAt)));
      const [made] = await tx.insert(inboundAddresses).values({ ownerId, token: newToken() }).returning();
      return made;
    });
    if (!row) throw new Error('inbound address was not created');
    return this.view(row, await this.recent(ownerId));
  }

  /** Whose address `recipient` is, or why it is refused. Never reveals whether a retired token once existed. */
  async resolve(recipient: string): Promise<InboundRecipient | RecipientRefusal> {
    const at = recipient.lastIndexOf('@');
    if (!this.domain || at < 0) return 'relay';
    const local = recipient.slice(0, at).toLowerCase();
    const domain = recipient.slice(at + 1).toLowerCase();
    if (domain !== this.domain) return 'relay';
    if (!local.startsWith(LOCAL_PREFIX)) return 'unknown';
    const token = local.slice(LOCAL_PREFIX.length);
    if (!TOKEN.test(token)) return 'unknown';
    const [row] = await this.db
      .select({ ownerId: inboundAddresses.ownerId })
      .from(inboundAddresses)
      .where(and(eq(inboundAddresses.token, token), isNull(inboundAddresses.retiredAt)))
      .limit(1);
    return row ? { ownerId: row.ownerId, address: this.addressOf(token) } : 'unknown';
  }

  private async currentRow(ownerId: string) {
    const [row] = await this.db
      .select()
      .from(inboundAddresses)
      .where(and(eq(inboundAddresses.ownerId, ownerId), isNull(inboundAddresses.retiredAt)))
      .limit(1);
    return row;
  }

  private addressOf(token: string): string {
    return `${LOCAL_PREFIX}${token}@${this.domain}`;
  }

  /** The person's last mails received at any of their invoice addresses (the mailboxes named after them). */
  private async recent(ownerId: string): Promise<InboundAddress['recent']> {
    const rows = await this.db
      .select({
        createdAt: mailMessages.createdAt,
        senderName: mailMessages.senderName,
        senderEmail: mailMessages.senderEmail,
        subject: mailMessages.subject,
        isCandidate: mailMessages.isCandidate,
      })
      .from(mailMessages)
      .innerJoin(mailAccounts, eq(mailAccounts.id, mailMessages.accountId))
      .where(
        and(
          eq(mailMessages.ownerId, ownerId),
          eq(mailAccounts.ownerId, ownerId),
          eq(mailAccounts.provider, 'mbox'),
          like(mailAccounts.email, `${LOCAL_PREFIX}%@${this.domain}`),
        ),
      )
      .orderBy(desc(mailMessages.createdAt))
      .limit(5);
    return rows.map((r) => ({
      received_at: r.createdAt.toISOString(),
      from: r.senderName && r.senderEmail ? `${r.senderName} <${r.senderEmail}>` : (r.senderEmail ?? r.senderName),
      subject: r.subject,
      is_invoice: r.isCandidate,
    }));
  }

  private view(row: typeof inboundAddresses.$inferSelect, recent: InboundAddress['recent']): InboundAddress {
    return { enabled: true, address: this.addressOf(row.token), created_at: row.createdAt.toISOString(), recent };
  }
}
