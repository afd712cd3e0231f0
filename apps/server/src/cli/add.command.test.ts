import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { UploadResponse } from '@invoicebox/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/auth-app';
import { mailDatasets } from '../../test/mail/mail-builder';
import { multipartBody } from '../../test/multipart';
import { loadConfig } from '../config';
import { buildApp } from '../http/app';
import { invoices } from '../invoices/invoices.tables';
import { createLogger } from '../logger';
import { createRuntime } from '../runtime';
import { InboxFolder } from '../uploads/inbox-folder';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/invoicebox.js');
const pdf = path.resolve(mailDatasets, '../invoices-pdf/AzureInterior.pdf');
const silent = () => createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));

/** `invoicebox add` from the built bundle, on the embedded database of a fresh data dir with its owner. */
describe('invoicebox add', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-add-'));
    await fs.chmod(dir, 0o755);
    const runtime = await createRuntime(
      loadConfig({ INVOICEBOX_DATA_DIR: dir, INVOICEBOX_WORKERS: 'false' }),
      silent(),
    );
    await runtime.auth.local.signUp({ email: 'owner@example.com', password: 'a long password' }, {});
    await runtime.close();
    await fs.writeFile(path.join(dir, 'notes.txt'), 'not a document');
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'add', ...args], {
      env: { PATH: process.env.PATH ?? '', INVOICEBOX_DATA_DIR: dir },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('adds each file once, says per file what became of it, and fails when one was refused', () => {
    const first = run(pdf, path.join(dir, 'notes.txt'), path.join(dir, 'missing.pdf'), '--json');
    expect(first.status, first.stderr).toBe(1);
    const { files } = JSON.parse(first.stdout) as { files: UploadResponse['files'] };
    expect(files.map((f) => [f.name, f.status, f.code])).toEqual([
      ['AzureInterior.pdf', 'added', null],
      ['notes.txt', 'failed', 'not_a_document'],
      ['missing.pdf', 'failed', 'not_found'],
    ]);
    const second = run(pdf);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe(`${pdf}: duplicate (Already in Invoicebox: nothing new was added)\n`);
  });

  it('the same PDF through the CLI, the inbox folder and an upload is one document', async () => {
    const inbox = path.join(dir, 'inbox');
    await fs.mkdir(inbox);
    await fs.copyFile(pdf, path.join(inbox, 'scan from the folder.pdf'));
    const config = loadConfig({ INVOICEBOX_DATA_DIR: dir, INVOICEBOX_WORKERS: 'false' });
    const runtime = await createRuntime(config, silent());
    try {
      const owner = (await runtime.users.owner())!;
      const folder = new InboxFolder(runtime.uploads, { dir: inbox, pollMs: 60_000, ownerId: async () => owner.id });
      await folder.pass();
      const [fromFolder] = await folder.pass();
      expect(fromFolder).toMatchObject({ status: 'duplicate' });
      expect(await fs.readdir(path.join(inbox, 'done'))).toEqual(['scan from the folder.pdf']);

      const app = await buildApp({
        config,
        logger: silent(),
        health: runtime.health,
        jobs: runtime.jobs,
        authenticate: runtime.authenticate,
        auth: runtime.auth,
        routes: runtime.routes,
      });
      try {
        const signin = await app.inject({
          method: 'POST',
          url: '/api/v1/auth/local/signin',
          payload: { email: 'owner@example.com', password: 'a long password' },
        });
        const body = multipartBody([{ name: 'uploaded.pdf', content: await fs.readFile(pdf) }]);
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/invoices/upload',
          headers: { ...bearer((signin.json() as { token: string }).token), ...body.headers },
          payload: body.payload,
        });
        expect((res.json() as UploadResponse).files[0]).toMatchObject({ status: 'duplicate' });
      } finally {
        await app.close();
      }
      const sha = createHash('sha256')
        .update(await fs.readFile(pdf))
        .digest('hex');
      const rows = await runtime.database.db
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.ownerId, owner.id), eq(invoices.dedupeKey, sha)));
      expect(rows).toHaveLength(1);
      // Three ways in, three upload records in the job history.
      const jobs = await runtime.jobs.list(owner.id, 20);
      expect(jobs.filter((j) => j.type === 'document_upload').map((j) => j.message)).toEqual([
        '1 file(s) uploaded: 0 added, 1 already there',
        '1 file(s) from the inbox folder: 0 added, 1 already there',
        '1 file(s) added from the command line: 0 added, 1 already there',
        '3 file(s) added from the command line: 1 added, 2 refused',
      ]);
    } finally {
      await runtime.close();
    }
  });
});
