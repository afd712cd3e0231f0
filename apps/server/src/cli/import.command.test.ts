import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailDatasets } from '../../test/mail/mail-builder';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createRuntime } from '../runtime';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/invoicebox.js');

/** `invoicebox import` from the built bundle, on the embedded database of a fresh data dir with its owner. */
describe('invoicebox import', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-import-'));
    await fs.chmod(dir, 0o755);
    const runtime = await createRuntime(
      loadConfig({ INVOICEBOX_DATA_DIR: dir, INVOICEBOX_WORKERS: 'false' }),
      createLogger('silent', new Writable({ write: (_c, _e, done) => done() })),
    );
    await runtime.auth.local.signUp({ email: 'owner@example.com', password: 'a long password' }, {});
    await runtime.close();
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const run = () =>
    spawnSync(process.execPath, [bin, 'import', mailDatasets, '--json'], {
      env: { PATH: process.env.PATH ?? '', INVOICEBOX_DATA_DIR: dir },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('imports every message once into the owner’s store; a second import adds nothing', () => {
    const first = run();
    expect(first.status).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary).toMatchObject({ account: 'owner@example.com', messages_read: 37 });
    expect(summary.invoices_added).toBeGreaterThan(5);
    const second = run();
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ messages_read: 37, messages_added: 0, invoices_added: 0 });
  });
});
