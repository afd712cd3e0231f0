import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxEntry } from './sandbox-entry';
import { SandboxPool } from './sandbox-pool';

/**
 * The process-wide document sandbox: one pool of child processes (sandbox-pool.ts) running the tasks of
 * document.tasks.ts — field extraction, statement reading — on untrusted bytes. A child that crashes, runs out of
 * memory or out of time rejects its task with a SandboxError; the next task gets a fresh child.
 */

export interface DocumentSandboxSettings {
  /** Child processes at most (documents read at once). */
  processes: number;
  /** Resident-memory limit of one child. */
  memoryMb: number;
  /** Time limit of one document; the child is killed a little after it, should its own limit not fire. */
  timeoutMs: number;
  /** Stop children that have been idle this long. */
  idleMs: number;
  /** Diagnostics of sandbox deaths (never document bytes). */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

export const DEFAULT_SANDBOX_SETTINGS: DocumentSandboxSettings = {
  processes: Math.max(1, Math.min(2, os.availableParallelism())),
  memoryMb: 1024,
  timeoutMs: 60_000,
  idleMs: 120_000,
};

let settings: DocumentSandboxSettings = DEFAULT_SANDBOX_SETTINGS;
/**
 * The pool being made or made. One promise, so that callers that ask at once (the CLI's prewarm and its document)
 * share one pool: two would leave the first one's child running, keeping the command alive until its idle timer.
 */
let pool: Promise<SandboxPool> | null = null;
/** That pool once made (documentSandboxPids is synchronous). */
let made: SandboxPool | null = null;

/**
 * Sets the sandbox's limits (server start-up, CLI); takes effect for the next document. Running children are stopped
 * only when a setting they were started with changes (the time limit is read per document), so that a child started
 * early (prewarmDocumentSandbox) survives a configuration that confirms its settings.
 */
export async function configureDocumentSandbox(next: Partial<DocumentSandboxSettings>): Promise<void> {
  const before = settings;
  settings = { ...settings, ...next };
  const forkTime = ['processes', 'memoryMb', 'idleMs', 'log'] as const;
  if (forkTime.some((k) => settings[k] !== before[k])) await closeDocumentSandbox();
}

/** Stops the sandbox's children (shutdown, end of a CLI command, tests). */
export async function closeDocumentSandbox(): Promise<void> {
  const current = pool;
  pool = null;
  const closing = await current?.catch(() => null);
  if (closing && made === closing) made = null;
  await closing?.close();
}

/** The live children's process ids (tests, diagnostics). */
export function documentSandboxPids(): number[] {
  return made?.pids() ?? [];
}

/**
 * What a child may read: the server package (its code) and every node_modules folder above it, nothing else — in
 * particular not the data folder (secrets, documents, the database), even when it lies inside the checkout.
 */
function readablePaths(packageDir: string): string[] {
  const paths = new Set<string>([packageDir]);
  for (let dir = packageDir; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules'))) paths.add(path.join(dir, 'node_modules'));
    if (path.dirname(dir) === dir) break;
  }
  return [...paths];
}

function getPool(): Promise<SandboxPool> {
  if (!pool) {
    const making = makePool();
    pool = making;
    // A pool that could not be made is tried again by the next document, not remembered as failed.
    making.catch(() => {
      if (pool === making) pool = null;
    });
  }
  return pool;
}

async function makePool(): Promise<SandboxPool> {
  const { prepareOcrData } = await import('../extraction/ocr/ocr.engine');
  // The children may not write: the OCR models are put in place here, once.
  const ocrDir = prepareOcrData();
  const { entry, packageDir } = await sandboxEntry(import.meta.url, './document.child.ts', 'document-child');
  const created = new SandboxPool({
    entry,
    size: settings.processes,
    memoryMb: settings.memoryMb,
    readPaths: [...readablePaths(packageDir), ocrDir],
    idleMs: settings.idleMs,
    env: { TMPDIR: os.tmpdir(), ...(process.env.PATH ? { PATH: process.env.PATH } : {}) },
    ...(settings.log ? { log: settings.log } : {}),
  });
  made = created;
  return created;
}

/** Runs one task of document.tasks.ts in the sandbox; rejects with SandboxError when its child dies. */
export async function runDocumentTask<T>(name: string, input: unknown, timeoutMs: number): Promise<T> {
  return (await getPool()).run<T>(name, input, timeoutMs);
}

/**
 * Starts a child and has it load the invoice readers now, so that the first document does not wait for them (the
 * CLI's `extract`, which otherwise forks only once it has loaded everything itself). Best effort: a child that cannot
 * start fails the document that follows, with the usual error.
 */
export function prewarmDocumentSandbox(): void {
  void getPool()
    .then((p) => p.run('warm', null, settings.timeoutMs))
    .catch(() => {});
}

/** The per-document time limit of the current settings. */
export function documentTimeoutMs(): number {
  return settings.timeoutMs;
}
