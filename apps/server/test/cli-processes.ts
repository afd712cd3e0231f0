import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real `invoicebox start` and `invoicebox worker` processes for the scale-out test and benchmark, run from the built
 * CLI (bin/invoicebox.js, what people run): five processes compiling TypeScript through tsx at once would take
 * half a minute of the test's two cores before anything is measured.
 */
export const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(serverRoot, 'bin', 'invoicebox.js');
const builtCli = path.join(serverRoot, 'dist', 'cli.js');

/** Fails with the command to run when dist/ is missing or older than a source file it is built from. */
export async function assertBuiltCliIsCurrent(): Promise<void> {
  if (!existsSync(builtCli)) {
    throw new Error(`${builtCli} is missing: run \`npm run build\` (npm test does it before the tests)`);
  }
  const builtAt = statSync(builtCli).mtimeMs;
  for (const root of [path.join(serverRoot, 'src'), path.resolve(serverRoot, '../../packages/core/src')]) {
    for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (statSync(file).mtimeMs > builtAt) {
        throw new Error(`the built CLI is older than ${file}: run \`npm run build\` first`);
      }
    }
  }
}

export interface CliProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The last lines it printed (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM (graceful: requests and jobs finish), SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

function spawnCli(args: string[], env: Record<string, string>, ready: RegExp): Promise<CliProcess & { match: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: serverRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: CliProcess = {
    child,
    pid: child.pid!,
    output: () => output,
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
      const m = output.match(ready);
      if (m) resolve({ ...handle, match: m[1] ?? m[0] });
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code, signal) =>
      reject(new Error(`invoicebox ${args.join(' ')} exited before it was ready (${code ?? signal}): ${output}`)),
    );
  });
}

/** `invoicebox start` on a free port; resolves once it prints its address, with that address (127.0.0.1). */
export async function startApi(env: Record<string, string>): Promise<CliProcess & { url: string }> {
  const api = await spawnCli(['start'], { PORT: '0', HOST: '127.0.0.1', ...env }, /running at (http:\/\/\S+)/);
  // It prints `localhost`, which may resolve to ::1 first; it listens on 127.0.0.1 only.
  const url = new URL(api.match);
  url.hostname = '127.0.0.1';
  return { ...api, url: url.origin };
}

/** `invoicebox worker -c N`; resolves once its queue pollers run. Needs LOG_LEVEL info or lower to see that. */
export function startWorker(env: Record<string, string>, concurrency: number): Promise<CliProcess> {
  return spawnCli(['worker', '--concurrency', String(concurrency)], { LOG_LEVEL: 'info', ...env }, /worker started/);
}
