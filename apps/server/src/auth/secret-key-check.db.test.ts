import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEST_AUTH } from '../../test/auth-app';
import { useTestDatabase } from '../../test/db';
import { createAuthModule } from '../runtime';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { masterKeyPath } from './secret-box';

const t = useTestDatabase();

/**
 * Processes of one installation on one external database, each on its own machine (data folder): they must share
 * INVOICEBOX_SECRET. One that would make a key of its own, or that has another, stops at start-up saying so.
 */
describe('one key for every process of a database', () => {
  let base: string;
  beforeAll(async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-key-check-'));
  });
  afterAll(() => fs.rm(base, { recursive: true, force: true }));

  const start = (machine: string, secret?: string) =>
    createAuthModule(
      { auth: DEFAULT_TEST_AUTH, secret, dataDir: path.join(base, machine), databaseUrl: t().url },
      t().database.db,
      new UsersService(new UsersRepository(t().database.db)),
    );

  it('lets the first process make its key, refuses a second machine without INVOICEBOX_SECRET, and one with another', async () => {
    // The first process, without INVOICEBOX_SECRET: its key in its own data folder, recorded by fingerprint.
    await start('machine-a');
    const [row] = (await t().database.pool.query('select fingerprint from secret_key_check')).rows;
    expect(row.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(row)).not.toContain(await fs.readFile(masterKeyPath(path.join(base, 'machine-a')), 'utf8'));
    // The same machine again: the same key.
    await start('machine-a');

    // Another machine, without the secret: it stops before making a key, naming the variable.
    await expect(start('machine-b')).rejects.toThrow(
      /^INVOICEBOX_SECRET is not set, and other Invoicebox processes already use this database with their key: set INVOICEBOX_SECRET/,
    );
    await expect(fs.access(masterKeyPath(path.join(base, 'machine-b')))).rejects.toThrow('ENOENT');

    // Another machine with some INVOICEBOX_SECRET that is not the first key: stops too.
    await expect(start('machine-c', 'a-secret-of-at-least-thirty-two-characters')).rejects.toThrow(
      'INVOICEBOX_SECRET is not the key the other Invoicebox processes of this database encrypt with',
    );

    // A machine that carries the first one's key file (what INVOICEBOX_SECRET would give it) is fine.
    await fs.mkdir(path.dirname(masterKeyPath(path.join(base, 'machine-d'))), { recursive: true, mode: 0o700 });
    await fs.copyFile(masterKeyPath(path.join(base, 'machine-a')), masterKeyPath(path.join(base, 'machine-d')));
    await start('machine-d');
  });

  it('with INVOICEBOX_SECRET from the start, every process with that value starts and one with another stops', async () => {
    await t().database.pool.query('delete from secret_key_check; delete from signing_keys');
    const secret = 'the-shared-secret-of-at-least-32-characters';
    await Promise.all([start('api-1', secret), start('api-2', secret), start('worker-1', secret)]);
    await expect(start('worker-2')).rejects.toThrow('INVOICEBOX_SECRET is not set');
    await expect(start('worker-3', `${secret}-other`)).rejects.toThrow('INVOICEBOX_SECRET is not the key');
  });
});
