import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildAuthTestApp } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail, type TestMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { users } from '../db/schema';
import { LocalBlobStore } from './blob.store';
import { IngestService } from './ingest.service';
import { invoicesRoutes } from './invoices.routes';
import { InvoicesService } from './invoices.service';

const t = useTestDatabase();

const HOSTILE = 'in"voice\r\nSet-Cookie: x=1/..\\ü €.pdf';

async function* mails(prefix: string, specs: TestMail[]) {
  for (const [i, spec] of specs.entries()) {
    yield {
      ok: true as const,
      origin: `${prefix}-${i}`,
      source: buildMail({ messageId: `<${prefix}-${i}@x>`, ...spec }),
    };
  }
}

describe('invoice API: export, accounts, downloads, tenants', () => {
  let harness: Awaited<ReturnType<typeof buildAuthTestApp>>;
  let token = '';
  let dir: string;
  const a = { id: '', one: '', two: '' };
  const b = { id: '', one: '' };

  beforeAll(async () => {
    const { db } = t().database;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-api-'));
    const blobs = new LocalBlobStore(dir);
    const accounts = new AccountsService(new AccountsRepository(db));
    harness = await buildAuthTestApp(db, { routes: [invoicesRoutes(new InvoicesService(db, accounts, blobs))] });
    const signup = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/auth/local/signup',
      payload: { email: 'me@example.com', password: 'a long password' },
    });
    token = signup.json().token;
    a.id = signup.json().user.id;
    a.one = (await accounts.connect(a.id, { provider: 'mbox', email: 'one@example.com' })).userId;
    a.two = (await accounts.connect(a.id, { provider: 'mbox', email: 'two@example.com' })).userId;
    const [other] = await db.insert(users).values({ email: 'bob@example.com', displayName: 'Bob' }).returning();
    b.id = other!.id;
    b.one = (await accounts.connect(b.id, { provider: 'mbox', email: 'bob.mail@example.com' })).userId;

    const ingest = new IngestService(db, blobs, {
      extract: async ({ filename }) =>
        filename.includes('bob')
          ? { vendor: null, amount: 5, currency: 'GBP', invoice_date: '2024-05-01', invoice_number: 'BOB-SECRET' }
          : { vendor: null, amount: 10, currency: 'USD', invoice_date: '2024-04-01', invoice_number: '=1+2' },
    });
    const pdf = (name: string) => ({ filename: name, contentType: 'application/pdf', content: `%PDF-1.4 ${name}` });
    await ingest.ingest(
      a.id,
      a.one,
      mails('a1', [
        {
          from: 'Acme <billing@acme.example>',
          subject: '=HYPERLINK("http://evil") invoice, "quoted"',
          attachments: [{ ...pdf(HOSTILE), nameStyle: 'rfc2231' }],
        },
        { from: 'Shared <s@shared.example>', subject: 'Invoice shared', attachments: [pdf('shared-invoice.pdf')] },
      ]),
    );
    // The same document through A's second account: one invoice, listed under both accounts.
    await ingest.ingest(
      a.id,
      a.two,
      mails('a2', [
        { from: 'Shared <s@shared.example>', subject: 'Invoice shared', attachments: [pdf('shared-invoice.pdf')] },
      ]),
    );
    await ingest.ingest(
      b.id,
      b.one,
      mails('b1', [{ from: 'Bob Co <b@bob.example>', subject: 'Invoice bob', attachments: [pdf('bob-invoice.pdf')] }]),
    );
  });
  afterAll(async () => {
    await harness.app.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const get = (url: string) => harness.app.inject({ url: `/api/v1${url}`, headers: bearer(token) });

  it("never uses another person's account ids, alone or mixed with one's own", async () => {
    const theirs = await get(`/invoices?user_ids=${b.one}`);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toEqual({ invoices: [], total: 0, total_emails: 0 });
    const mixed = await get(`/invoices?user_ids=${b.one},${a.two}`);
    expect(mixed.json().total).toBe(1);
    expect(mixed.body).not.toContain('BOB-SECRET');
    expect((await get(`/invoices/stats?user_ids=${b.one}`)).json().total_invoices).toBe(0);
    const exported = await get(`/invoices/export?format=json&user_ids=${b.one}`);
    expect(exported.json()).toEqual({ invoices: [] });
    expect((await get('/invoices')).json().total).toBe(2);
    expect((await get('/invoices/export')).body).not.toContain('BOB');
  });

  it('searches over sender, subject and file names', async () => {
    expect((await get('/invoices?search=SHARED-INVOICE.PDF')).json().total).toBe(1);
    expect((await get('/invoices?search=acme')).json().total).toBe(1);
    expect((await get('/invoices?search=hyperlink')).json().total).toBe(1);
    expect((await get('/invoices?search=nothing-like-this')).json().total).toBe(0);
    expect((await get('/invoices?month=2024-04')).json().total).toBe(2);
    expect((await get('/invoices?month=2024-05')).json().total).toBe(0);
  });

  it('groups the list per account in scope', async () => {
    // No user_ids: the caller's account scope (the primary account by default).
    expect((await get('/gmail/accounts/invoices')).json().accounts).toHaveLength(1);
    const res = await get(`/gmail/accounts/invoices?user_ids=${a.one},${a.two},${b.one}`);
    expect(res.statusCode).toBe(200);
    const groups = res.json().accounts as Array<{ user_id: string; email: string; total: number }>;
    expect(groups.map((g) => [g.email, g.total]).sort()).toEqual([
      ['one@example.com', 2],
      ['two@example.com', 1],
    ]);
    expect(res.body).not.toContain(b.one);
  });

  it('exports CSV per RFC 4180 with formula cells neutralised, and JSON', async () => {
    const csv = await get('/invoices/export?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="invoices-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body.split('\r\n');
    expect(csv.body.endsWith('\r\n')).toBe(true);
    expect(lines[0]).toBe(
      'id,vendor,email,amount,amount_minor,currency,invoice_date,invoice_number,status,category,details,drive_file_id,attachments',
    );
    // Two rows; the hostile file name's CRLF stays inside its quoted field (RFC 4180).
    expect(csv.body.match(/\r\n[0-9a-f]{8}-/g)).toHaveLength(2);
    expect(csv.body).toContain('"in""voice\r\nSet-Cookie: x=1/..\\ü €.pdf"');
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil"") invoice, ""quoted"""`);
    expect(csv.body).toContain(",'=1+2,");
    expect(csv.body).not.toMatch(/,[=+@-]/);
    const json = await get('/invoices/export?format=json&search=shared');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.json().invoices).toHaveLength(1);
    expect(json.json().invoices[0]).toMatchObject({ invoice_number: '=1+2', attachments: 'shared-invoice.pdf' });
    expect((await get('/invoices/export?format=xml')).statusCode).toBe(400);
  });

  it('downloads a file with a hostile name: exact bytes, one safe header line', async () => {
    const { invoices } = (await get('/invoices?search=hyperlink')).json();
    const attachment = invoices[0].attachments[0];
    const res = await get(`/invoices/${invoices[0].id}/attachments/${attachment.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['set-cookie']).toBeUndefined();
    const disposition = res.headers['content-disposition'] as string;
    expect(disposition).not.toMatch(/[\r\n]/);
    expect(disposition).toMatch(/^attachment; filename="[^"\\/]*"; filename\*=UTF-8''[A-Za-z0-9%._~!*'()-]+$/);
    const star = decodeURIComponent(disposition.split("filename*=UTF-8''")[1]!);
    expect(star).not.toMatch(/["/\\\r\n]/);
    expect(star).toContain('ü €.pdf');
    expect(res.body).toBe(`%PDF-1.4 ${attachment.filename}`);
    expect(Number(res.headers['content-length'])).toBe(attachment.size);
    const missing = await get(`/invoices/${invoices[0].id}/attachments/7`);
    expect(missing.statusCode).toBe(404);
  });

  it('plans the filters with indexes on a few thousand invoices', async () => {
    const { db } = t().database;
    await db.execute(sql`
      insert into mail_messages (owner_id, account_id, origin, is_candidate)
      select ${a.id}::uuid, ${a.one}::uuid, 'gen-' || g, true from generate_series(1, 4000) g`);
    await db.execute(sql`
      insert into invoices (owner_id, dedupe_key, message_row_id, vendor, status, category, invoice_date, search_text,
        account_ids)
      select m.owner_id, 'gen:' || m.origin, m.id, 'Vendor ' || (g % 50),
        (array['pending','uploaded','failed'])[1 + g % 3], (array['Invoice','Receipt','Bill'])[1 + g % 3],
        to_char(date '2020-01-01' + g, 'YYYY-MM-DD'), lower('vendor ' || (g % 50) || ' subject number ' || g),
        array[${a.one}::uuid]
      from mail_messages m cross join lateral (select substr(m.origin, 5)::int as g) x
      where m.origin like 'gen-%'`);
    await db.execute(sql`
      insert into invoice_accounts (invoice_id, account_id)
      select id, ${a.one}::uuid from invoices where dedupe_key like 'gen:%'`);
    await db.execute(sql`analyze`);
    const plan = async (where: string) => {
      const rows = (
        await db.execute(
          sql.raw(`explain select id from invoices i where i.owner_id = '${a.id}' and ${where}
            order by i.invoice_date desc nulls last limit 20`),
        )
      ).rows as Array<{ 'QUERY PLAN': string }>;
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    // Sequential scans off: on a small table PostgreSQL may rightly prefer one; what matters is that an index exists.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      for (const where of [
        'true',
        "i.vendor = 'Vendor 7'",
        "i.status = 'failed'",
        "i.category = 'Receipt'",
        "i.invoice_date >= '2024-03-01' and i.invoice_date < '2024-04-01'",
        "i.search_text like '%number 1234%'",
      ]) {
        const text = (
          (
            await tx.execute(
              sql.raw(`explain select id from invoices i where i.owner_id = '${a.id}' and ${where}
            order by i.invoice_date desc nulls last limit 20`),
            )
          ).rows as Array<{ 'QUERY PLAN': string }>
        )
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(text, where).not.toMatch(/Seq Scan on invoices/);
      }
    });
    expect(await plan("i.search_text like '%number 1234%'")).toContain('invoices');
    expect((await get('/invoices?search=number%201234&has_attachments=false')).json().total).toBe(1);
  });
});
