import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/** How far ahead of expiry provider access is refreshed. */
const REFRESH_AHEAD_MINUTES = 15;

/**
 * Enqueues a `token_refresh` job for each person whose provider access expires soon, every few minutes, from every
 * worker process; a transaction-level advisory lock makes one process do a given tick, and a person with such a
 * job already pending or running gets no second one.
 */
export class TokenRefreshScheduler {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly enqueue: (ownerId: string) => Promise<unknown>,
    private readonly intervalMs = 5 * 60_000,
    private readonly log: (message: string, error?: unknown) => void = () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass; returns the owners a job was enqueued for. */
  async tick(): Promise<string[]> {
    try {
      const owners = await this.db.transaction(async (tx) => {
        const locked = await tx.execute(
          sql`select pg_try_advisory_xact_lock(hashtext('invoicebox:token-refresh')) as ok`,
        );
        if (!(locked.rows[0] as { ok: boolean } | undefined)?.ok) return [];
        const due = await tx.execute(sql`
          select distinct t.owner_id
          from provider_tokens t
          where t.refresh_token_encrypted is not null
            and t.expires_at < now() + make_interval(mins => ${REFRESH_AHEAD_MINUTES})
            and not exists (
              select 1 from jobs j
              where j.owner_id = t.owner_id and j.type = 'token_refresh' and j.status in ('pending', 'running')
            )`);
        return (due.rows as Array<{ owner_id: string }>).map((r) => r.owner_id);
      });
      for (const owner of owners) await this.enqueue(owner);
      return owners;
    } catch (error) {
      this.log('token refresh scheduling failed', error);
      return [];
    }
  }
}
