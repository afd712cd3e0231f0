import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, isOpen } from './ports';

/**
 * A real Apache mod_dav server for one test file, in its own temp dir and port (see shared/RECIPES.md §3: only
 * Apache honours `If-None-Match: *` and `If-Match` on PUT, which the WebDAV adapter relies on). Basic auth with one
 * user. `stop()` and `start()` again keep the files, so tests can take the server away; `dispose()` deletes them.
 */
export interface TestWebDav {
  /** Base URL of the DAV root, ending in '/'. */
  url: string;
  username: string;
  password: string;
  /** The DAV root on disk: what the server stores, for assertions. */
  dir: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

const APACHE = '/usr/sbin/apache2';
const MODULES = ['mpm_event', 'authn_core', 'authn_file', 'auth_basic', 'authz_core', 'authz_user', 'dav', 'dav_fs'];

export async function startWebDav(options: { username?: string; password?: string } = {}): Promise<TestWebDav> {
  const username = options.username ?? 'test';
  const password = options.password ?? 'secret';
  await fs.access(APACHE).catch(() => {
    throw new Error(`${APACHE} is missing: install the Debian package apache2 (scripts/install-system-deps.sh)`);
  });
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-webdav-'));
  await fs.chmod(base, 0o755);
  const dir = path.join(base, 'dav');
  for (const sub of ['run', 'lock', 'dav']) await fs.mkdir(path.join(base, sub), { recursive: true });
  // Apache drops to www-data when started as root; the files and the lock database must be its own.
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    for (const sub of ['lock', 'dav']) await fs.chown(path.join(base, sub), 33, 33);
  }
  await promisify(execFile)('htpasswd', ['-bcB', path.join(base, 'htpasswd'), username, password]).catch((error) => {
    throw new Error(`htpasswd failed (Debian package apache2-utils): ${(error as Error).message}`);
  });
  const port = await freePort();
  const user = isRoot ? 'www-data' : os.userInfo().username;
  const group = isRoot ? 'www-data' : (await promisify(execFile)('id', ['-gn'])).stdout.trim();
  const conf = `ServerRoot /usr/lib/apache2
ServerName localhost
Listen 127.0.0.1:${port}
PidFile ${base}/run/httpd.pid
DefaultRuntimeDir ${base}/run
ErrorLog ${base}/error.log
User ${user}
Group ${group}
${MODULES.map((m) => `LoadModule ${m}_module modules/mod_${m}.so`).join('\n')}
DAVLockDB ${base}/lock/DAVLock
DocumentRoot ${dir}
<Directory ${dir}>
  Dav On
  AuthType Basic
  AuthName dav
  AuthUserFile ${base}/htpasswd
  Require valid-user
</Directory>
`;
  const confPath = path.join(base, 'httpd.conf');
  await fs.writeFile(confPath, conf);
  let child: ChildProcess | undefined;

  async function start() {
    if (child) return;
    const running = spawn(APACHE, ['-f', confPath, '-DFOREGROUND'], { stdio: 'ignore' });
    child = running;
    const deadline = Date.now() + 10_000;
    while (!(await isOpen(port))) {
      if (Date.now() > deadline || running.exitCode !== null) {
        child = undefined;
        running.kill('SIGKILL');
        const log = await fs.readFile(path.join(base, 'error.log'), 'utf8').catch(() => '');
        throw new Error(`apache2 did not start: ${log.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function stop() {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    // SIGTERM makes the parent end its children before it exits.
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGTERM');
    });
    while (await isOpen(port)) await new Promise((r) => setTimeout(r, 20));
  }

  await start();
  return {
    url: `http://127.0.0.1:${port}/`,
    username,
    password,
    dir,
    start,
    stop,
    async dispose() {
      await stop();
      await fs.rm(base, { recursive: true, force: true });
    },
  };
}
