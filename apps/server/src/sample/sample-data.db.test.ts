import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { SampleDataRemoved, SampleDataStatus } from '@invoicebox/core';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSampleData } from '../../eval/sample-data.generator';
import { bearer, signUpThroughApi, TEST_SECRET } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { buildMail } from '../../test/mail/mail-builder';
import { invoicePdf } from '../../test/mail/mailbox-generator';
import { waitFor } from '../../test/wait-for';
import { mailAccounts } from '../accounts/accounts.tables';
import { bankStatements, bankTransactions } from '../bank/bank.tables';
import { loadConfig } from '../config';
import { buildApp } from '../http/app';
import { invoices, mailMessages } from '../invoices/invoices.tables';
import { jobs } from '../jobs/jobs.tables';
import { createLogger } from '../logger';
import { createRuntime, type Runtime } from '../runtime';
import { SAMPLE_ACCOUNT_EMAIL } from './sample-files';

const t = useTestDatabase();

/**
 * The whole sample run on the real runtime and workers: the generated sample goes through the mail import and the
 * statement analysis (document sandbox, extraction, reconciliation), is marked sample, and goes away with one call
 * without touching the person's own mailbox, invoice and statement.
 */
describe('Try it with sample data', () => {
  let runtime: Runtime;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  let manifest: Awaited<ReturnType<typeof writeSampleData>>;
  let token = '';
  let ownerId = '';
  let ownAccountId = '';
  let ownStatementId = '';

  const call = async (method: 'GET' | 'POST' | 'DELETE') =>
    app.inject({ method, url: '/api/v1/sample-data', headers: bearer(token) });

  /** Waits until the sample job and the analysis of the sample statement have finished. */
  const settled = async (jobId: string) => {
    const sampleJob = await waitFor(async () => {
      const [job] = await t()
        .database.db.select()
        .from(jobs)
        .where(and(eq(jobs.id, jobId), eq(jobs.ownerId, ownerId), inArray(jobs.status, ['completed', 'failed'])));
      return job;
    }, 180_000);
    expect(sampleJob.error).toBeNull();
    return waitFor(async () => {
      const [statement] = await t()
        .database.db.select()
        .from(bankStatements)
        .where(and(eq(bankStatements.ownerId, ownerId), eq(bankStatements.isSample, true)));
      return statement && statement.status !== 'pending' ? statement : undefined;
    }, 120_000);
  };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-sample-'));
    manifest = await writeSampleData(path.join(dataDir, 'sample'));
    const config = loadConfig({
      DATABASE_URL: t().url,
      INVOICEBOX_DATA_DIR: dataDir,
      INVOICEBOX_SECRET: TEST_SECRET,
      DOCUMENT_STORE: 'local',
    });
    const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
    runtime = await createRuntime(config, logger, { sampleDir: path.join(dataDir, 'sample') });
    app = await buildApp({
      config,
      logger,
      health: runtime.health,
      jobs: runtime.jobs,
      authenticate: runtime.authenticate,
      auth: runtime.auth,
      routes: runtime.routes,
    });
    const signup = await signUpThroughApi(app, 'owner@example.com', 'correct horse battery staple');
    token = signup.token;
    ownerId = signup.userId;
    // The person's own mailbox with one invoice, and their own statement: both must outlive the sample.
    ownAccountId = (await runtime.accounts.connect(ownerId, { provider: 'imap', email: 'me@example.com' })).userId;
    async function* ownMail() {
      yield {
        ok: true as const,
        origin: 'own-1',
        source: buildMail({
          from: 'Own Vendor <billing@own.example>',
          subject: 'Invoice OWN-1',
          messageId: '<own-1@example.com>',
          attachments: [
            {
              filename: 'invoice-own-1.pdf',
              contentType: 'application/pdf',
              content: invoicePdf(['Own Vendor', 'Invoice number: OWN-1', 'Total: EUR 42.00']),
            },
          ],
        }),
      };
    }
    await runtime.ingest.ingest(ownerId, ownAccountId, ownMail());
    ownStatementId = await runtime.bank.receive(ownerId, {
      filename: 'own.csv',
      file_data: Buffer.from('Date,Description,Amount\n2026-03-03,Own Vendor OWN-1,-42.00\n').toString('base64'),
    });
    await runtime.bank.analyze(ownerId, ownStatementId);
    await runtime.startWorkers(2);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('imports the sample through the mail import and the statement analysis, marked sample, once', async () => {
    const before = (await call('GET')).json() as SampleDataStatus;
    expect(before).toMatchObject({ available: true, loaded: false, account_id: null, invoices: 0 });

    const started = await call('POST');
    expect(started.statusCode).toBe(200);
    const status = started.json() as SampleDataStatus;
    expect(status).toMatchObject({ loaded: true, importing: true, account_email: SAMPLE_ACCOUNT_EMAIL });
    expect(status.statement_ids).toHaveLength(1);
    // A second click while it is loaded imports nothing twice.
    const again = await call('POST');
    expect(again.statusCode).toBe(409);

    expect(status.job_id).toBeTruthy();
    const statement = await settled(status.job_id!);
    expect(statement.status).toBe('processed');
    const { db } = t().database;

    // The sample mailbox: an mbox account flagged sample, shown to the person (active).
    const [account] = await db.select().from(mailAccounts).where(eq(mailAccounts.id, status.account_id!));
    expect(account).toMatchObject({ provider: 'mbox', email: SAMPLE_ACCOUNT_EMAIL, isSample: true, isActive: true });
    const sampleInvoices = await db
      .select({ invoice: invoices })
      .from(invoices)
      .innerJoin(mailMessages, eq(mailMessages.id, invoices.messageRowId))
      .where(eq(mailMessages.accountId, account!.id));
    // Every sample invoice and none of the newsletters, order confirmations or the boarding pass.
    expect(sampleInvoices).toHaveLength(manifest.invoices.length);
    const messages = await db.select().from(mailMessages).where(eq(mailMessages.accountId, account!.id));
    expect(messages).toHaveLength(manifest.messages);
    // The text PDFs and the Factur-X are read exactly: amounts of 1,000 and more in every number style.
    for (const truth of manifest.invoices.filter((i) => i.kind !== 'scan')) {
      const found = sampleInvoices.find((r) => r.invoice.invoiceNumber === truth.invoice_number)?.invoice;
      expect(found, truth.file).toMatchObject({ amountMinor: truth.amount_minor, currency: truth.currency });
    }
    expect(new Set(manifest.invoices.map((i) => i.style))).toEqual(new Set(['de', 'fr', 'en', 'ch']));

    // The statement pays the paid invoices, and it is marked sample.
    expect(statement.isSample).toBe(true);
    const matched = await db
      .select({ number: invoices.invoiceNumber })
      .from(bankTransactions)
      .innerJoin(invoices, eq(invoices.id, bankTransactions.matchedInvoiceId))
      .where(eq(bankTransactions.statementId, statement.id));
    expect(matched.map((m) => m.number).sort()).toEqual(
      manifest.invoices
        .filter((i) => i.paid)
        .map((i) => i.invoice_number)
        .sort(),
    );
    const after = (await call('GET')).json() as SampleDataStatus;
    expect(after).toMatchObject({
      loaded: true,
      importing: false,
      invoices: manifest.invoices.length,
      statement_ids: [statement.id],
    });

    // The list marks each sample invoice (its card's 'Sample data' badge); the person's own invoice is not marked.
    const listed = await app.inject({
      method: 'GET',
      url: `/api/v1/invoices?limit=200&user_ids=${account!.id},${ownAccountId}`,
      headers: bearer(token),
    });
    const cards = (listed.json() as { invoices: Array<{ invoice_number: string | null; sample?: boolean }> }).invoices;
    expect(cards.filter((c) => c.sample === true)).toHaveLength(manifest.invoices.length);
    expect(cards.filter((c) => c.sample === false).map((c) => c.invoice_number)).toEqual(['OWN-1']);
  }, 300_000);

  it('removes everything the sample made with one call, and nothing of the person’s own', async () => {
    const removed = await call('DELETE');
    expect(removed.statusCode).toBe(200);
    expect(removed.json() as SampleDataRemoved).toEqual({
      accounts: 1,
      invoices: manifest.invoices.length,
      statements: 1,
    });
    const { db } = t().database;
    const accounts = await db.select().from(mailAccounts).where(eq(mailAccounts.ownerId, ownerId));
    expect(accounts.map((a) => [a.id, a.isPrimary, a.isActive])).toEqual([[ownAccountId, true, true]]);
    const left = await db.select().from(invoices).where(eq(invoices.ownerId, ownerId));
    expect(left.map((i) => i.invoiceNumber)).toEqual(['OWN-1']);
    const statements = await db.select().from(bankStatements).where(eq(bankStatements.ownerId, ownerId));
    expect(statements.map((s) => s.id)).toEqual([ownStatementId]);
    expect((await call('GET')).json()).toMatchObject({
      loaded: false,
      account_id: null,
      statement_ids: [],
      invoices: 0,
    });
  });

  it('loads again after a removal, once for two clicks at the same time', async () => {
    const [first, second] = await Promise.all([call('POST'), call('POST')]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const started = (first.statusCode === 200 ? first : second).json() as SampleDataStatus;
    // Not removable while the import runs: it would leave half of it.
    expect((await call('DELETE')).statusCode).toBe(409);
    await settled(started.job_id!);
    const { db } = t().database;
    expect(await db.select().from(mailAccounts).where(eq(mailAccounts.isSample, true))).toHaveLength(1);
    expect((await call('DELETE')).statusCode).toBe(200);
    expect(await db.select().from(mailAccounts).where(eq(mailAccounts.ownerId, ownerId))).toHaveLength(1);
  }, 300_000);
});
