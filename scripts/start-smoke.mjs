// Starts the built server (what `npm start` runs after its build) on the Node running this script, with a fresh data
// folder and the embedded PostgreSQL, waits for it to answer healthy with the app's security headers, and stops it
// with SIGTERM. Proves the machine's own Node still runs the product while the tests run on Node 24.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const dataDir = mkdtempSync(path.join(tmpdir(), 'invoicebox-start-'));
// The embedded PostgreSQL runs as its own user when we are root and must enter the folder.
chmodSync(dataDir, 0o755);
const started = Date.now();
const server = spawn(process.execPath, ['apps/server/bin/invoicebox.js', 'start'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', INVOICEBOX_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));

let failure;
try {
  const base = `http://127.0.0.1:${port}`;
  let healthy = false;
  while (!healthy && Date.now() - started < 180_000 && server.exitCode === null) {
    healthy = await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (!healthy) await new Promise((r) => setTimeout(r, 500));
  }
  if (!healthy) throw new Error('the server did not answer healthy within 180 s');
  const page = await fetch(base, { headers: { accept: 'text/html' } });
  const csp = page.headers.get('content-security-policy') ?? '';
  if (page.status !== 200 || !csp.includes("frame-ancestors 'none'")) {
    throw new Error(`the app page answered ${page.status} with CSP "${csp}"`);
  }
  console.log(`Node ${process.versions.node}: the built server answered healthy in ${Date.now() - started} ms`);
} catch (error) {
  failure = error;
} finally {
  server.kill('SIGTERM');
  const { code, signal } = await exited;
  rmSync(dataDir, { recursive: true, force: true });
  if (!failure && code !== 0) failure = new Error(`the server stopped with ${signal ?? `exit code ${code}`}`);
}
if (failure) {
  console.error(`start smoke test failed: ${failure.message}`);
  process.exit(1);
}
console.log('stopped cleanly on SIGTERM');
