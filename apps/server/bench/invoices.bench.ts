/**
 * Invoice list latency at 100,000 invoices of one owner (spec goal: p95 ≤ 50 ms), on the embedded and the external
 * PostgreSQL: the list as GET /invoices runs it (filters, count, total emails, attachments of the page), unfiltered
 * and with each filter; and GET /invoices/stats, with and without `user_ids`. Prints figures; never fails on time.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InvoiceListQuery } from '@invoicebox/core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { AccountsRepository } from '../src/accounts/accounts.repository';
import { AccountsService } from '../src/accounts/accounts.service';
import { openDatabase } from '../src/db/client';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { runMigrations } from '../src/db/migrate';
import { users } from '../src/db/schema';
import { LocalBlobStore } from '../src/invoices/blob.store';
import { InvoicesService } from '../src/invoices/invoices.service';

const INVOICES = 100_000;
const RUNS = 60;

export async function runInvoicesBench(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-bench-inv-'));
  await fs.chmod(dir, 0o755);
  try {
    const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'));
    try {
      await benchList('embedded', embedded.url, dir);
    } finally {
      await embedded.stop();
    }
    const external = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    const admin = new pg.Client({ connectionString: external, connectionTimeoutMillis: 2000 });
    try {
      await admin.connect();
    } catch {
      console.log('invoice list, external PostgreSQL: not run (no server at TEST_DATABASE_URL or 127.0.0.1:5432)');
      return;
    }
    const name = `ibx_bench_inv_${process.pid}`;
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    try {
      const u = new URL(external);
      u.pathname = `/${name}`;
      await benchList('external', u.toString(), dir);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function benchList(engine: string, url: string, dir: string): Promise<void> {
  const database = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', databasePoolSize: 4 });
  try {
    await runMigrations(database.pool);
    const { db } = database;
    const [owner] = await db.insert(users).values({ email: 'bench@example.com', displayName: 'Bench' }).returning();
    const accounts = new AccountsService(new AccountsRepository(db));
    const account = await accounts.connect(owner!.id, { provider: 'mbox', email: 'bench@example.com' });
    const seeded = performance.now();
    await seed(db, owner!.id, account.userId);
    const seedSeconds = (performance.now() - seeded) / 1000;
    const blobs = new LocalBlobStore(path.join(dir, 'blobs'));
    await blobs.put('0'.repeat(64), Buffer.alloc(2048, 1));
    const service = new InvoicesService(db, accounts, blobs);
    const base: InvoiceListQuery = { page: 1, limit: 20, has_attachments: false };
    const cases: Array<[string, InvoiceListQuery]> = [
      ['unfiltered', base],
      ['page 50', { ...base, page: 50 }],
      ['vendor', { ...base, vendor: 'Vendor 17' }],
      ['month', { ...base, month: '2024-03' }],
      ['status', { ...base, status: 'missing' }],
      ['category', { ...base, category: 'Receipt' }],
      ['search', { ...base, search: 'inv-04242' }],
      ['has_attachments', { ...base, has_attachments: true }],
    ];
    console.log(`invoice list, ${engine} PostgreSQL, ${INVOICES} invoices (seeded in ${seedSeconds.toFixed(1)} s):`);
    for (const [label, query] of cases) {
      await measure(label, () => service.list(owner!.id, query));
    }
    await measure('stats', () => service.stats(owner!.id));
    await measure('stats user_ids', () => service.stats(owner!.id, account.userId));
  } finally {
    await database.close();
  }
}

/** Prints p50 and p95 of `RUNS` calls after five warm-up calls. */
async function measure(label: string, call: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 5; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((x, y) => x - y);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  console.log(`  ${label.padEnd(16)} p50 ${at(0.5).padStart(6)} ms   p95 ${at(0.95).padStart(6)} ms`);
}

/** 100,000 messages and invoices in SQL (a quarter with one PDF), spread over five years and fifty vendors. */
export async function seed(db: Awaited<ReturnType<typeof openDatabase>>['db'], ownerId: string, accountId: string) {
  await db.execute(sql`
    insert into mail_messages (owner_id, account_id, origin, message_id, sender_name, sender_email, subject, is_candidate)
    select ${ownerId}::uuid, ${accountId}::uuid, 'b-' || g, '<b-' || g || '@bench>', 'Vendor ' || (g % 50),
      'billing' || (g % 50) || '@vendor.example', 'Invoice INV-' || lpad(g::text, 5, '0'), true
    from generate_series(1, ${INVOICES}) g`);
  await db.execute(sql`
    insert into message_attachments (message_row_id, position, sha256, filename, size, content_type, qualifies)
    select m.id, 0, repeat('0', 64), 'inv-' || substr(m.origin, 3) || '.pdf', 2048, 'application/pdf', true
    from mail_messages m where m.owner_id = ${ownerId}::uuid and substr(m.origin, 3)::int % 4 = 0`);
  await db.execute(sql`
    insert into invoices (owner_id, dedupe_key, message_row_id, vendor, email, amount, amount_minor, currency,
      invoice_date, invoice_number, status, category, details, search_text, account_ids,
      has_attachments)
    select m.owner_id, 'b:' || m.origin, m.id, m.sender_name, m.sender_email, '$' || (g % 500) || '.00',
      (g % 500) * 100, 'USD', to_char(date '2020-01-01' + (g % 1800), 'YYYY-MM-DD'), 'INV-' || lpad(g::text, 5, '0'),
      (array['pending','uploaded','failed'])[1 + g % 3], (array['Invoice','Receipt','Bill','Statement'])[1 + g % 4],
      m.subject, lower(concat_ws(E'\n', m.sender_name, m.sender_email, m.subject, 'inv-' || lpad(g::text, 5, '0'))),
      array[${accountId}::uuid], g % 4 = 0
    from mail_messages m cross join lateral (select substr(m.origin, 3)::int as g) x
    where m.owner_id = ${ownerId}::uuid`);
  await db.execute(sql`
    insert into invoice_accounts (invoice_id, account_id)
    select id, ${accountId}::uuid from invoices where owner_id = ${ownerId}::uuid`);
  await db.execute(sql`analyze`);
}
