import { and, eq, sql } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import { imapSettings } from '../accounts/accounts.tables';
import type { Db } from '../db/client';
import { connectChecked, type OutboundPolicy } from '../net/outbound';

/** Where each kind of account's mail server is, for the reachability check. */
const GMAIL_API = { host: 'gmail.googleapis.com', port: 443 };
/** One text for every failure: a refused port and a silent one must look the same. */
const UNREACHABLE = 'Could not connect';

export interface PortCheck {
  account_id: string;
  email: string;
  provider: string;
  host: string | null;
  port: number | null;
  reachable: boolean | null;
  latency_ms: number | null;
  error: string | null;
}

/**
 * POST /sync/port-check and /sync/user-aggregation: can each account's mail server be reached from here (a TCP
 * connect, no credentials), and what each account has brought in so far. An IMAP host is the person's: it is
 * resolved and checked by the outbound policy like every other connection to it.
 */
export class SyncDiagnosticsService {
  private readonly outbound: OutboundPolicy;
  private readonly timeoutMs: number;

  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsService,
    options: { outbound?: OutboundPolicy; timeoutMs?: number } = {},
  ) {
    this.outbound = options.outbound ?? { allowPrivate: false };
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  async portCheck(ownerId: string): Promise<{ accounts: PortCheck[] }> {
    const { accounts } = await this.accounts.list(ownerId);
    const results = await Promise.all(
      accounts.map(async (account): Promise<PortCheck> => {
        const base = { account_id: account.userId, email: account.email, provider: account.provider };
        let target: { host: string; port: number } | null = null;
        if (account.provider === 'google') target = GMAIL_API;
        if (account.provider === 'imap') {
          const [row] = await this.db
            .select({ host: imapSettings.host, port: imapSettings.port })
            .from(imapSettings)
            .where(and(eq(imapSettings.ownerId, ownerId), eq(imapSettings.accountId, account.userId)));
          target = row ?? null;
        }
        if (!target) return { ...base, host: null, port: null, reachable: null, latency_ms: null, error: null };
        const started = performance.now();
        const error = await this.connect(target.host, target.port);
        return {
          ...base,
          ...target,
          reachable: error === null,
          latency_ms: error === null ? Math.round(performance.now() - started) : null,
          error,
        };
      }),
    );
    return { accounts: results };
  }

  async userAggregation(ownerId: string) {
    const { accounts } = await this.accounts.list(ownerId);
    const rows = (
      await this.db.execute(sql`
        select a.id as account_id,
          (select count(*)::int from mail_messages m where m.account_id = a.id) as messages,
          (select count(*)::int from invoice_accounts ia where ia.account_id = a.id) as invoices
        from mail_accounts a where a.owner_id = ${ownerId}`)
    ).rows as Array<{ account_id: string; messages: number; invoices: number }>;
    const byId = new Map(rows.map((r) => [r.account_id, r]));
    const list = accounts.map((a) => ({
      account_id: a.userId,
      email: a.email,
      provider: a.provider,
      is_primary: a.isPrimary,
      last_sync: a.lastSync,
      messages: byId.get(a.userId)?.messages ?? 0,
      invoices: byId.get(a.userId)?.invoices ?? 0,
    }));
    return {
      accounts: list,
      totals: {
        accounts: list.length,
        messages: list.reduce((n, a) => n + a.messages, 0),
        invoice_links: list.reduce((n, a) => n + a.invoices, 0),
      },
    };
  }

  private async connect(host: string, port: number): Promise<string | null> {
    try {
      (await connectChecked(host, port, this.outbound, this.timeoutMs)).destroy();
      return null;
    } catch {
      return UNREACHABLE;
    }
  }
}
