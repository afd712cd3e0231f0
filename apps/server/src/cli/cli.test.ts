import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The real `invoicebox` command, from the bundle that `npm run build` makes (npm test builds first). */
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/invoicebox.js');

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the invoicebox command', () => {
  let dir: string;
  beforeAll(async () => {
    if (!existsSync(path.resolve(path.dirname(bin), '../dist/cli.js'))) {
      throw new Error('apps/server/dist is missing: run `npm run build` first (npm test does)');
    }
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-cli-'));
    await fs.chmod(dir, 0o755);
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('prints its version and help', () => {
    const version = run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = run(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['start', 'worker', 'migrate']) expect(help.stdout).toContain(command);
  });

  it('refuses an unknown command with a non-zero exit', () => {
    const result = run(['frobnicate']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/unknown command/);
  });

  it.each([
    [{ PORT: 'eighty' }, /^invoicebox: invalid configuration: PORT: /],
    [{ DATABASE_URL: 'postgres://u@no-such-host.invalid:5432/db' }, /^invoicebox: cannot connect to DATABASE_URL/],
    [{ INVOICEBOX_DATA_DIR: '/dev/null/invoicebox' }, /^invoicebox: INVOICEBOX_DATA_DIR .* is not writable/],
  ])('bad configuration %o ends with one clear line and exit code 1', (env, message) => {
    const result = run(['start'], { INVOICEBOX_DATA_DIR: path.join(dir, 'unused'), ...env });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('says in one line that the database is unreachable and where, without the password', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as net.AddressInfo;
    await new Promise((r) => blocker.close(r)); // a port nothing listens on
    const result = run(['migrate'], { DATABASE_URL: `postgres://u:hunter2@127.0.0.1:${port}/db` });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `invoicebox: cannot connect to DATABASE_URL: the database is unreachable at 127.0.0.1:${port} (ECONNREFUSED)\n`,
    );
  });

  it('says which PORT is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const result = run(['start'], { PORT: String(port), INVOICEBOX_DATA_DIR: path.join(dir, 'port-taken') });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`PORT ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });

  it('starts on the embedded database, prints its URL, serves health, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(dir, 'live');
    const child = spawn(process.execPath, [bin, 'start'], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', INVOICEBOX_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const match = stdout.match(/Invoicebox is running at (http:\/\/localhost:\d+)/);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${stdout}`)));
    });
    const health = await fetch(`${url}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: { engine: 'embedded' } });
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(true);

    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // The embedded PostgreSQL was stopped with it.
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });
});
