import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { users } from '../db/schema';
import { readRawMailPath } from '../mail/mail-path.reader';
import { buildMail, mailDatasets } from '../mail/testing/mail-builder';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { invoiceAccounts, invoices, mailMessages } from './invoices.tables';

const t = useTestDatabase();

/** Field extraction is tested in its own module; here a fixed answer keeps the store's behaviour in view. */
const extractor = {
  extract: async ({ filename }: { filename: string }) => ({
    vendor: null,
    amount: 12.5,
    currency: 'EUR',
    invoice_date: '2024-03-01',
    invoice_number: `N-${filename.length}`,
  }),
};

describe('ingesting mail into the invoice store', () => {
  let dir: string;
  let service: IngestService;
  let ownerId: string;
  let accountA: string;
  let accountB: string;

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-blobs-'));
    service = new IngestService(db, new LocalBlobStore(dir), extractor);
    const [owner] = await db.insert(users).values({ email: 'o@example.com', displayName: 'O' }).returning();
    ownerId = owner!.id;
    const accounts = new AccountsService(new AccountsRepository(db));
    accountA = (await accounts.connect(ownerId, { provider: 'mbox', email: 'a@example.com' })).userId;
    accountB = (await accounts.connect(ownerId, { provider: 'mbox', email: 'b@example.com' })).userId;
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const counts = async () => {
    const { db } = t().database;
    const [m] = await db.select({ n: count() }).from(mailMessages);
    const [i] = await db.select({ n: count() }).from(invoices);
    const [l] = await db.select({ n: count() }).from(invoiceAccounts);
    return { messages: m!.n, invoices: i!.n, links: l!.n };
  };

  it('records every message, keeps the candidates as invoices, and a second run adds nothing', async () => {
    const first = await service.ingest(ownerId, accountA, readRawMailPath(mailDatasets));
    expect(first.seen).toBe(37);
    expect(first.invoices).toBeGreaterThan(5);
    const after = await counts();
    expect(after.messages).toBe(first.added);
    const again = await service.ingest(ownerId, accountA, readRawMailPath(mailDatasets));
    expect(again).toMatchObject({ seen: 37, added: 0, invoices: 0 });
    expect(await counts()).toEqual(after);
    const [one] = await t().database.db.select().from(invoices).limit(1);
    expect(one).toMatchObject({ amount: '€12.50', amountMinor: 1250, currency: 'EUR', status: 'pending' });
  });

  it('the same mail through a second account is the same invoices, linked to both accounts', async () => {
    const before = await counts();
    const ac = new AbortController();
    // Killed part-way, then run again: nothing is lost and nothing doubles.
    const partial = service
      .ingest(ownerId, accountB, readRawMailPath(mailDatasets), {
        signal: ac.signal,
        onProgress: (p) => {
          if (p.seen === 10) ac.abort();
        },
      })
      .catch((e) => e);
    expect(await partial).toBeInstanceOf(Error);
    await service.ingest(ownerId, accountB, readRawMailPath(mailDatasets));
    const after = await counts();
    expect(after.invoices).toBe(before.invoices);
    expect(after.links).toBe(before.links * 2);
    expect(after.messages).toBe(before.messages * 2);
    const rows = await t()
      .database.db.select({ accountIds: invoices.accountIds, search: invoices.searchText })
      .from(invoices);
    for (const row of rows) {
      expect(row.accountIds.sort()).toEqual([accountA, accountB].sort());
      expect(row.search).toBe(row.search.toLowerCase());
    }
  });

  it('records a failed extraction on the invoice and goes on', async () => {
    const { db } = t().database;
    const failing = new IngestService(db, new LocalBlobStore(dir), {
      extract: async () => {
        throw new Error('the PDF is broken');
      },
    });
    async function* one() {
      yield {
        ok: true as const,
        origin: 'broken-1',
        source: buildMail({
          messageId: '<broken-1@x>',
          subject: 'Invoice 77',
          attachments: [{ filename: 'invoice-77.pdf', content: '%PDF-1.4 broken' }],
        }),
      };
    }
    const result = await failing.ingest(ownerId, accountA, one());
    expect(result).toMatchObject({ added: 1, invoices: 1 });
    const [row] = await db.select().from(invoices).where(eq(invoices.details, 'Invoice 77'));
    expect(row).toMatchObject({ amount: null, amountMinor: null, hasAttachments: true });
    expect(row!.extraction).toMatchObject({ errors: [{ filename: 'invoice-77.pdf', error: 'the PDF is broken' }] });
  });
});
