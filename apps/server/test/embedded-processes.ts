import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { serverRoot } from './cli-processes';

/** `invoicebox start` on the embedded PostgreSQL of `dataDir` (no DATABASE_URL, whatever this process has). */
export interface EmbeddedStart {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves with its address (127.0.0.1) once it serves; rejects when it exits first. */
  readonly ready: Promise<string>;
  readonly exited: Promise<number | null>;
  output(): string;
  /** SIGTERM, SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

export function spawnEmbeddedStart(dataDir: string, env: Record<string, string> = {}): EmbeddedStart {
  const child = spawn(process.execPath, [path.join(serverRoot, 'bin', 'invoicebox.js'), 'start'], {
    cwd: serverRoot,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      INVOICEBOX_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_SECONDS: '2',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<string>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const match = output.match(/running at (http:\/\/\S+)/);
      if (match) {
        const url = new URL(match[1]!);
        url.hostname = '127.0.0.1';
        resolve(url.origin);
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code, signal) => reject(new Error(`start exited (${code ?? signal}): ${output}`)));
  });
  ready.catch(() => {}); // a start expected to fail is awaited through `exited`
  return {
    child,
    pid: child.pid!,
    ready,
    exited,
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
}

/** The pid in `<dataDir>/pg/postmaster.pid`, if the file is there. */
export async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const text = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => undefined);
  const pid = Number(text?.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
