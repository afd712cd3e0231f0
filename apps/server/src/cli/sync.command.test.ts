import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerSession } from '../../test/auth-app';
import { startDovecot, type TestDovecot } from '../../test/dovecot';
import { buildMail } from '../../test/mail/mail-builder';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createRuntime } from '../runtime';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/invoicebox.js');

/** `invoicebox sync` from the built bundle: a real Dovecot mailbox into the owner's store, then into the drive. */
describe('invoicebox sync', () => {
  let dir: string;
  let dovecot: TestDovecot;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-sync-cli-'));
    await fs.chmod(dir, 0o755);
    dovecot = await startDovecot({ cli: 'pw' });
    await dovecot.deliver(
      'cli',
      [1, 2, 3].map((i) =>
        buildMail({
          from: `Vendor ${i} <billing@vendor${i}.example>`,
          subject: `Invoice ${i}`,
          messageId: `<cli-${i}@example.com>`,
          attachments: [{ filename: `invoice-${i}.pdf`, content: Buffer.from(`%PDF-1.4 invoice ${i}`) }],
        }),
      ),
    );
    const runtime = await createRuntime(
      // The test's Dovecot is on loopback (the one-person default allows it; said here all the same).
      loadConfig({ INVOICEBOX_DATA_DIR: dir, INVOICEBOX_WORKERS: 'false', ALLOW_PRIVATE_NETWORK_TARGETS: 'true' }),
      createLogger('silent', new Writable({ write: (_c, _e, done) => done() })),
    );
    const owner = ownerSession(
      await runtime.auth.local.signUp({ email: 'owner@example.com', password: 'a long password' }, {}),
    );
    await runtime.imapAccounts.connect(owner.user.id, {
      email: 'cli@mail.test',
      host: dovecot.host,
      port: dovecot.imapPort,
      secure: false,
      username: 'cli',
      password: 'pw',
      mailboxes: ['INBOX'],
    });
    await runtime.close();
  }, 120_000);
  afterAll(async () => {
    await dovecot?.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'sync', ...args], {
      env: { PATH: process.env.PATH ?? '', INVOICEBOX_DATA_DIR: dir, ALLOW_PRIVATE_NETWORK_TARGETS: 'true' },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('syncs the mailbox and files the invoices in the drive; a second run finds nothing new', async () => {
    const first = run('--drive', '--json');
    expect(first.status).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result.accounts).toEqual([
      expect.objectContaining({ email: 'cli@mail.test', ok: true, messages: 3, invoices: 3 }),
    ]);
    expect(result.drive).toMatchObject({ uploaded: 3, failed: 0 });
    const filed = await fs.readdir(path.join(dir, 'drive', 'Invoices'), { recursive: true });
    expect(filed.filter((f) => String(f).endsWith('.pdf'))).toHaveLength(3);

    const second = run('--account', 'CLI@mail.test');
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('cli@mail.test: 0 new message(s), 0 new invoice(s)');
  });

  it('names an unknown mailbox and exits 2', () => {
    const unknown = run('--account', 'nobody@mail.test');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no connected mailbox is nobody@mail.test');
  });
});
