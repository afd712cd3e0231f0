import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sandboxEntry } from '../sandbox/sandbox-entry';
import { SandboxError, SandboxPool } from '../sandbox/sandbox-pool';
import type { ExtractTaskInput, SandboxExtractOptions } from './extraction.tasks';
import { DEFAULT_LIMITS, type ExtractionResult } from './extraction.types';

/**
 * Field extraction through the document sandbox: every PDF, image, OCR and XML read happens in a child process with
 * a memory and a time limit (sandbox/sandbox-pool.ts). A child that crashes, runs out of memory or out of time costs
 * that one document, which comes back with a clear error (`document_crashed`, `document_out_of_memory`,
 * `document_timeout`) like any other unreadable file; the next document gets a fresh child.
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
  timeoutMs: DEFAULT_LIMITS.timeoutMs,
  idleMs: 120_000,
};

let settings: DocumentSandboxSettings = DEFAULT_SANDBOX_SETTINGS;
let pool: SandboxPool | null = null;

/** Sets the sandbox's limits (server start-up, CLI); takes effect for the next document. */
export async function configureDocumentSandbox(next: Partial<DocumentSandboxSettings>): Promise<void> {
  settings = { ...settings, ...next };
  await closeDocumentSandbox();
}

/** Stops the sandbox's children (shutdown, end of a CLI command, tests). */
export async function closeDocumentSandbox(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.close();
}

/** The live children's process ids (tests, diagnostics). */
export function documentSandboxPids(): number[] {
  return pool?.pids() ?? [];
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

async function getPool(): Promise<SandboxPool> {
  if (pool) return pool;
  const { prepareOcrData } = await import('./ocr/ocr.engine');
  // The children may not write: the OCR models are put in place here, once.
  const ocrDir = prepareOcrData();
  const { entry, packageDir } = await sandboxEntry(import.meta.url, './extraction.child.ts', 'extraction-child');
  pool = new SandboxPool({
    entry,
    size: settings.processes,
    memoryMb: settings.memoryMb,
    readPaths: [...readablePaths(packageDir), ocrDir],
    idleMs: settings.idleMs,
    env: { TMPDIR: os.tmpdir(), ...(process.env.PATH ? { PATH: process.env.PATH } : {}) },
    ...(settings.log ? { log: settings.log } : {}),
  });
  return pool;
}

/** Reads one document's fields in the sandbox. Never throws for a bad document: its problems come back as `errors`. */
export async function extractInSandbox(
  input: { bytes: Uint8Array; filename: string; mimeType?: string },
  options: SandboxExtractOptions = {},
): Promise<ExtractionResult> {
  const started = performance.now();
  const timeoutMs = options.limits?.timeoutMs ?? settings.timeoutMs;
  const task: ExtractTaskInput = {
    bytes: input.bytes,
    filename: input.filename,
    ...(input.mimeType ? { mimeType: input.mimeType } : {}),
    options: { ...options, limits: { ...options.limits, timeoutMs } },
  };
  try {
    // A little more than the document's own limit: the child's cooperative time-out gives the clearer message.
    return await (await getPool()).run<ExtractionResult>('extract', task, timeoutMs + 5_000);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return {
      vendor: null,
      amount: null,
      currency: null,
      invoice_date: null,
      invoice_number: null,
      amount_minor: null,
      fields: {},
      errors: [{ code: error.failure, message: error.message }],
      warnings: [],
      meta: { kind: 'unknown', pages: 0, ms: Math.round((performance.now() - started) * 10) / 10 },
    };
  }
}
