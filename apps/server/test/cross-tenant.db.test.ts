import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountsService } from '../src/accounts/accounts.service';
import { loadConfig } from '../src/config';
import { buildApp } from '../src/http/app';
import { JobsRepository } from '../src/jobs/jobs.repository';
import { createLogger } from '../src/logger';
import { createRuntime, type Runtime } from '../src/runtime';
import { bearer, signUpThroughApi, TEST_SECRET } from './auth-app';
import { useTestDatabase } from './db';
import { buildMail } from './mail/mail-builder';

/**
 * The cross-tenant matrix: person B calls EVERY route of the API (read from the OpenAPI document, so a new route is
 * covered the day it is added) with person A's ids in the path, the query and the body. B must never see or change
 * A's data. A path parameter this test has no id for fails the test: give it one below.
 */
const t = useTestDatabase();

describe('no cross-tenant reads or writes, on every route', () => {
  // The real runtime and app, so every route the product serves is in the matrix.
  let runtime: Runtime;
  let harness: { app: Awaited<ReturnType<typeof buildApp>> };
  let accounts: AccountsService;
  let dataDir: string;
  const a = {
    token: '',
    userId: '',
    accountIds: [] as string[],
    jobId: '',
    invoiceId: '',
    statementId: '',
    transactionId: '',
    emails: [] as string[],
  };
  const b = { token: '', userId: '' };

  beforeAll(async () => {
    const { db } = t().database;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-xt-'));
    const config = loadConfig({
      DATABASE_URL: t().url,
      INVOICEBOX_DATA_DIR: dataDir,
      INVOICEBOX_SECRET: TEST_SECRET,
      AUTH_ALLOW_SIGNUP: 'true',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      INVOICEBOX_WORKERS: 'false',
      // A sender, so that A can start forwarding (the workers are off: nothing is sent).
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '2',
      SMTP_FROM: 'relay@example.net',
    });
    const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));
    runtime = await createRuntime(config, logger);
    accounts = runtime.accounts;
    harness = {
      app: await buildApp({
        config,
        logger,
        health: runtime.health,
        jobs: runtime.jobs,
        authenticate: runtime.authenticate,
        auth: runtime.auth,
        routes: runtime.routes,
      }),
    };
    const sa = await signUpThroughApi(harness.app, 'alice@example.com', 'correct horse battery staple');
    const sb = await signUpThroughApi(harness.app, 'bob@example.com', 'correct horse battery staple');
    Object.assign(a, sa);
    Object.assign(b, sb);

    for (const email of ['alice.work@example.com', 'alice.home@example.com']) {
      a.accountIds.push((await accounts.connect(a.userId, { provider: 'imap', email })).userId);
      a.emails.push(email);
    }
    await accounts.connect(b.userId, { provider: 'imap', email: 'bob.mail@example.com' });
    // An invoice of A's, reached through A's first account.
    async function* oneMail() {
      yield {
        ok: true as const,
        origin: 'xt-1',
        source: buildMail({
          from: 'Acme Billing <billing@acme.example>',
          subject: 'Invoice A-1 for alice-secret-subject',
          messageId: '<xt-1@example.com>',
          attachments: [{ filename: 'invoice-a1.pdf', content: Buffer.from('%PDF-1.4 alice-secret-document') }],
        }),
      };
    }
    await runtime.ingest.ingest(a.userId, a.accountIds[0]!, oneMail());
    const listed = await runtime.invoices.list(a.userId, {
      page: 1,
      limit: 20,
      has_attachments: true,
      user_ids: a.accountIds.join(','),
    });
    a.invoiceId = listed.invoices[0]!.id;
    // A bank statement of A's, read and reconciled for real (the sandboxed CSV reader), with one transaction.
    a.statementId = await runtime.bank.receive(a.userId, {
      filename: 'alice-statement.csv',
      file_data: Buffer.from('Date,Description,Amount\n2026-03-03,alice-secret-payment,-12.00\n').toString('base64'),
    });
    await runtime.bank.analyze(a.userId, a.statementId);
    a.transactionId = (await runtime.bank.get(a.userId, a.statementId)).transactions[0]!.id;
    // A forwards to an accountant; the invoice is queued for them.
    await runtime.forwarding.updateConfig(a.userId, { enabled: true, target_emails: ['alice-accountant@example.com'] });
    await runtime.forwarding.start(a.userId);
    a.jobId = crypto.randomUUID();
    await new JobsRepository(db).insert({ id: a.jobId, ownerId: a.userId, type: 'noop', payload: {} });
  });

  afterAll(async () => {
    await harness?.app.close();
    await runtime?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('B gets none of A’s data and changes nothing of A’s', async () => {
    const doc = (await harness.app.inject({ url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const idFor: Record<string, string> = {
      id: a.accountIds[1]!, // replaced per route family below
      factorId: crypto.randomUUID(),
      provider: 'google',
      attachmentId: '0',
      transactionId: a.transactionId,
    };
    const calls: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        for (const p of params) {
          if (!(p in idFor)) throw new Error(`no id of A for path parameter {${p}} in ${method.toUpperCase()} ${path}`);
        }
        // Every id-bearing family gets A's id of that kind.
        const ids = path.startsWith('/api/v1/jobs')
          ? { ...idFor, id: a.jobId }
          : path.startsWith('/api/v1/invoices')
            ? { ...idFor, id: a.invoiceId }
            : path.startsWith('/api/v1/bank-statements')
              ? { ...idFor, id: a.statementId }
              : idFor;
        const url = path.replace(/\{(\w+)\}/g, (_, p: string) => ids[p]!);
        const query = `user_ids=${a.accountIds.join(',')}`;
        // A fresh session for every call: some routes (logout) end the one they are called with.
        const signin = await harness.app.inject({
          method: 'POST',
          url: '/api/v1/auth/local/signin',
          payload: { email: 'bob@example.com', password: 'correct horse battery staple' },
        });
        const token = (signin.json() as { token: string }).token;
        const res = await harness.app.inject({
          method: method.toUpperCase() as 'GET',
          url: `${url}${url.includes('?') ? '&' : '?'}${query}`,
          headers: bearer(token),
          ...(method === 'get' || method === 'delete'
            ? {}
            : {
                payload: {
                  user_ids: a.accountIds,
                  target_user_id: a.accountIds[0],
                  selectedScope: 'custom',
                  selectedUserIds: a.accountIds,
                  invoice_id: a.invoiceId,
                  filename: 'b-statement.csv',
                  file_data: Buffer.from('Date,Description,Amount\n2026-03-04,b,-1.00\n').toString('base64'),
                },
              }),
        });
        calls.push(`${method.toUpperCase()} ${path} → ${res.statusCode}`);
        // Data routes must really have been exercised as B (signed in), not refused at the door.
        if (!path.startsWith('/api/v1/auth/') && !path.startsWith('/.well-known')) {
          expect(res.statusCode, `${method.toUpperCase()} ${path} was not reached as B`).not.toBe(401);
        }
        const body = res.body;
        for (const secret of [
          a.userId,
          a.jobId,
          a.invoiceId,
          a.statementId,
          a.transactionId,
          'alice-statement.csv',
          'alice-secret-payment',
          ...a.accountIds,
          ...a.emails,
          'alice@example.com',
          'alice-secret-subject',
          'alice-secret-document',
          'alice-accountant@example.com',
          Buffer.from('%PDF-1.4 alice-secret-document').toString('base64'),
        ]) {
          expect(body, `${method.toUpperCase()} ${path} leaked ${secret}`).not.toContain(secret);
        }
      }
    }
    expect(calls.length).toBeGreaterThan(10);
    for (const route of [
      'GET /api/v1/forwarding/config',
      'PUT /api/v1/forwarding/config',
      'POST /api/v1/forwarding/start',
      'GET /api/v1/forwarding/stats',
    ]) {
      expect(calls.some((c) => c.startsWith(`${route} `))).toBe(true);
    }

    // Nothing of A's changed: both accounts, the same primary, the job still there.
    const aList = await accounts.list(a.userId);
    expect(aList.accounts.map((x) => x.userId)).toEqual(a.accountIds);
    expect(aList.session.primaryUserId).toBe(a.accountIds[0]);
    expect(aList.session.selectedScope).toBe('current');
    const job = await harness.app.inject({ url: `/api/v1/jobs/${a.jobId}`, headers: bearer(a.token) });
    expect(job.statusCode).toBe(200);
    // A's statement is still there, with its transaction as it was (no match made or undone by B).
    const statement = await runtime.bank.get(a.userId, a.statementId);
    expect(statement.transactions.map((x) => [x.id, x.match_source])).toEqual([[a.transactionId, null]]);
    // A's forwarding is as A left it, with the invoice still queued once for the accountant.
    const forwarding = await runtime.forwarding.getConfig(a.userId);
    expect(forwarding).toMatchObject({ enabled: true, target_emails: ['alice-accountant@example.com'] });
    expect(await runtime.forwarding.stats(a.userId)).toMatchObject({ total_pending: 1, total_forwarded: 0 });
    // B's own custom scope never took A's ids.
    expect((await accounts.list(b.userId)).session.selectedUserIds).toEqual([]);
  });
});
