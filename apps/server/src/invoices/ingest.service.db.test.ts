import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { buildMail, mailDatasets } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { users } from '../db/schema';
import { readRawMailPath } from '../mail/mail-path.reader';
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

  it('commits in batches, tells only of committed prefixes, and reads each document once', async () => {
    const { db } = t().database;
    const [owner] = await db.insert(users).values({ email: 'batch@example.com', displayName: 'B' }).returning();
    const accounts = new AccountsService(new AccountsRepository(db));
    const account = (await accounts.connect(owner!.id, { provider: 'mbox', email: 'batch@example.com' })).userId;
    const extracted: string[] = [];
    const counting = new IngestService(db, new LocalBlobStore(dir), {
      extract: async (input) => {
        extracted.push(input.filename);
        return extractor.extract(input);
      },
    });
    const mail = (doc: number, subject: string, i: number) =>
      buildMail({
        messageId: `<batch-${i}@x>`,
        subject,
        attachments: [{ filename: `invoice-${doc}.pdf`, content: `%PDF-1.4 batch document ${doc}` }],
      });
    const mails = [
      mail(2, 'Our newsletter', 0), // refused by the rules: its document is not read for it
      mail(2, 'Invoice 2', 1),
      mail(3, 'Invoice 3', 2),
      mail(3, 'Invoice 3, again', 3), // the same document in the same batch
      mail(3, 'Invoice 3, once more', 4), // and in a later batch
      mail(4, 'Invoice 4', 5),
    ];
    async function* stream() {
      for (const [i, source] of mails.entries()) {
        // Origins that sort in the opposite order of the stream: the stream's order must decide, not the keys'.
        yield { ok: true as const, origin: `batch-${9 - i}`, source };
        if (i === 2) yield { ok: false as const, error: { origin: 'bad', code: 'parse_failed' as const, message: '' } };
      }
    }
    const stored = async () =>
      (await db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.accountId, account)))[0]!.n;
    const committed: Array<{ seen: number; stored: number }> = [];
    const result = await counting.ingest(owner!.id, account, stream(), {
      batchSize: 2,
      onCommitted: async (seen) => {
        committed.push({ seen, stored: await stored() });
      },
    });
    expect(result).toEqual({ seen: 7, added: 6, invoices: 5, unreadable: 1 });
    // Batches [0,1], [2,(unreadable),3], [4,5]: each report comes after its rows are in.
    expect(committed).toEqual([
      { seen: 2, stored: 2 },
      { seen: 5, stored: 4 },
      { seen: 7, stored: 6 },
    ]);
    expect(extracted.sort()).toEqual(['invoice-2.pdf', 'invoice-3.pdf', 'invoice-4.pdf']);
    const rows = await db
      .select({ details: invoices.details, amountMinor: invoices.amountMinor })
      .from(invoices)
      .where(eq(invoices.ownerId, owner!.id));
    // One invoice per document, each from its first invoice email and with the fields read from it.
    expect(rows.sort((a, b) => (a.details! < b.details! ? -1 : 1))).toEqual([
      { details: 'Invoice 2', amountMinor: 1250 },
      { details: 'Invoice 3', amountMinor: 1250 },
      { details: 'Invoice 4', amountMinor: 1250 },
    ]);
  });

  it('stores what a failing source handed over before it failed, then reports its error', async () => {
    const { db } = t().database;
    const [owner] = await db.insert(users).values({ email: 'drop@example.com', displayName: 'D' }).returning();
    const accounts = new AccountsService(new AccountsRepository(db));
    const account = (await accounts.connect(owner!.id, { provider: 'mbox', email: 'drop@example.com' })).userId;
    async function* dropped() {
      for (let i = 0; i < 3; i++) {
        yield { ok: true as const, origin: `drop-${i}`, source: buildMail({ messageId: `<drop-${i}@x>` }) };
      }
      throw new Error('connection dropped');
    }
    const committed: number[] = [];
    const error = await service
      .ingest(owner!.id, account, dropped(), { onCommitted: async (seen) => void committed.push(seen) })
      .catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('connection dropped');
    expect(committed).toEqual([3]);
    const [stored] = await db.select({ n: count() }).from(mailMessages).where(eq(mailMessages.accountId, account));
    expect(stored!.n).toBe(3);
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
