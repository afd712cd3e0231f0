import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDocumentAttachment } from '@invoicebox/core';
import { MAX_ATTACHMENT_BYTES } from '../../src/mail/mail-limits';
import { type CliProcess, serverRoot, startApi } from '../cli-processes';
import { buildMail, buildMbox } from '../mail/mail-builder';
import { HOSTILE_FILENAMES, type HostileItem, validInvoicePdf } from './corpus';

/**
 * Feeds hostile items through the two ways untrusted bytes enter Invoicebox — the `invoicebox` CLI (`extract`,
 * `scan`, `statement`) and a running server (mail upload and its import job, Takeout .zip upload, bank-statement
 * upload, JSON API) on loopback — and judges each item:
 * - `ok`: read, or refused as the product would refuse a good file it does not support;
 * - `clear_error`: refused with a message meant for a person (one line, no stack, no internal error);
 * - `unclear_error`: an error that is not that (a stack trace, a 500, an item lost from its batch);
 * - `crash`: the process that read it died (a signal, an exit code other than 0 or 1, the server gone);
 * - `hang`: it passed its deadline.
 * Peak memory is the resident size of the process and its sandbox children together, sampled from /proc.
 */

export type Verdict = 'ok' | 'clear_error' | 'unclear_error' | 'crash' | 'hang';
export type Route =
  | 'cli-extract'
  | 'cli-scan'
  | 'cli-statement'
  | 'server-mail'
  | 'server-zip'
  | 'server-statement'
  | 'server-api';

export interface Outcome {
  id: string;
  category: string;
  route: Route;
  verdict: Verdict;
  detail: string;
}

const bin = path.join(serverRoot, 'bin', 'invoicebox.js');

/** Messages that leak internals instead of saying what is wrong with the file. */
const UNCLEAR =
  /\n\s+at |TypeError|ReferenceError|Cannot read prop|is not a function|is not defined|\[object Object\]|Maximum call stack|Internal Server Error|ECONNRESET|undefined \(|^undefined$|null \(/;

export function isClearMessage(message: string | null | undefined): boolean {
  if (!message) return false;
  const text = message.trim();
  return text.length > 0 && text.length <= 2000 && !UNCLEAR.test(text);
}

// --- memory ----------------------------------------------------------------------------------------------------------

function readStat(pid: number): { ppid: number; rss: number; name: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the name: state(0) ppid(1) … rss(21) in pages.
    return {
      ppid: Number(fields[1]),
      rss: Number(fields[21]) * 4096,
      name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    };
  } catch {
    return null;
  }
}

/**
 * Resident bytes of `root` and every process below it, PostgreSQL's excepted (an embedded database is a child of the
 * server, and its shared buffers are not the server's memory).
 */
export function treeRss(root: number): { total: number; largest: number; processes: number } {
  const stats = new Map<number, { ppid: number; rss: number; name: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.set(Number(name), stat);
  }
  const inTree = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, stat] of stats) {
      if (!inTree.has(pid) && inTree.has(stat.ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  let largest = 0;
  for (const pid of inTree) {
    const stat = stats.get(pid);
    if (!stat || stat.name.startsWith('postgres')) continue;
    const rss = stat.rss;
    total += rss;
    largest = Math.max(largest, rss);
  }
  return { total, largest, processes: inTree.size };
}

/** Samples the resident size of process trees; `peak` is the largest total seen of any one tree. */
export class MemoryWatch {
  peakTotal = 0;
  peakProcess = 0;
  private readonly roots = new Set<number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly everyMs = 100) {}

  watch(pid: number): () => void {
    this.roots.add(pid);
    this.timer ??= setInterval(() => this.sample(), this.everyMs);
    return () => {
      this.sample();
      this.roots.delete(pid);
    };
  }

  sample(): void {
    for (const pid of this.roots) {
      const { total, largest } = treeRss(pid);
      this.peakTotal = Math.max(this.peakTotal, total);
      this.peakProcess = Math.max(this.peakProcess, largest);
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

// --- CLI -------------------------------------------------------------------------------------------------------------

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  hung: boolean;
}

/** Runs `invoicebox ARGS` in its own process group, killed whole at the deadline. */
export function runCli(
  args: string[],
  options: { env: Record<string, string>; cwd: string; deadlineMs: number; memory?: MemoryWatch },
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const unwatch = child.pid && options.memory ? options.memory.watch(child.pid) : () => {};
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => {
      if (stdout.length < 4 * 1024 * 1024) stdout += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      if (stderr.length < 256 * 1024) stderr += c.toString();
    });
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      killGroup(child);
    }, options.deadlineMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      unwatch();
      // Sandbox children end with their parent's IPC channel; make sure of it.
      killGroup(child);
      resolve({ code, signal, stdout, stderr, hung });
    });
  });
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The verdict on one CLI run: 0 read, 1 with one clear line refused, anything else crashed. */
export function cliVerdict(run: CliRun): { verdict: Verdict; detail: string } {
  const lines = run.stderr
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('(node:') && !/--trace-warnings/.test(l));
  if (run.hung) return { verdict: 'hang', detail: 'passed its deadline' };
  if (run.signal || (run.code !== 0 && run.code !== 1)) {
    return { verdict: 'crash', detail: `exit ${run.signal ?? run.code}: ${lines.slice(-3).join(' | ')}` };
  }
  if (run.code === 0) return { verdict: 'ok', detail: '' };
  const message = lines.join('\n');
  return lines.length === 1 && isClearMessage(message)
    ? { verdict: 'clear_error', detail: message }
    : { verdict: 'unclear_error', detail: message.slice(0, 500) };
}

/** A file name for the disk: the item's, when the file system can hold it. */
function diskName(item: HostileItem, index: number): string {
  const ext = path.extname(item.filename).slice(0, 8) || '.bin';
  return `${String(index).padStart(4, '0')}${ext}`;
}

/** `invoicebox extract` on each document item (one process each, `concurrency` at once). */
export async function cliExtract(
  items: HostileItem[],
  options: { env: Record<string, string>; dir: string; deadlineMs: number; memory: MemoryWatch; concurrency?: number },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  await forEach(items, options.concurrency ?? 1, async (item, index) => {
    const file = path.join(options.dir, diskName(item, index));
    await fs.writeFile(file, item.bytes());
    const run = await runCli(['extract', file, '--json'], { ...options, cwd: options.dir });
    await fs.rm(file, { force: true });
    outcomes.push({ id: item.id, category: item.category, route: 'cli-extract', ...cliVerdict(run) });
  });
  return outcomes;
}

/** `invoicebox statement` on each CSV item. */
export async function cliStatement(
  items: HostileItem[],
  options: { env: Record<string, string>; dir: string; deadlineMs: number; memory: MemoryWatch; concurrency?: number },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  await forEach(items, options.concurrency ?? 1, async (item, index) => {
    const file = path.join(options.dir, diskName(item, index));
    await fs.writeFile(file, item.bytes());
    const run = await runCli(['statement', file, '--json'], { ...options, cwd: options.dir });
    await fs.rm(file, { force: true });
    outcomes.push({ id: item.id, category: item.category, route: 'cli-statement', ...cliVerdict(run) });
  });
  return outcomes;
}

/** The mail that carries a document item (its own subject, so its invoice can be found), or a mail item's bytes. */
function asMail(item: HostileItem, index: number): Buffer {
  if (item.channel === 'mail') return item.bytes();
  return buildMail({
    subject: `Invoice hostile-${index}`,
    messageId: `<hostile-${index}@hostile.example>`,
    from: `Hostile ${index} <billing@hostile${index}.example>`,
    attachments: [{ filename: item.filename.slice(0, 200), content: item.bytes() }],
  });
}

/** Valid invoices placed around the hostile ones: each must be stored whatever its neighbours did. */
export function controlMails(tag: string, count = 3): Array<{ subject: string; bytes: Buffer }> {
  return Array.from({ length: count }, (_, i) => {
    const subject = `Invoice control-${tag}-${i}`;
    return {
      subject,
      bytes: buildMail({
        subject,
        messageId: `<control-${tag}-${i}@control.example>`,
        from: `Control ${i} <billing@control${i}.example>`,
        attachments: [
          // Distinct bytes per control: the same document twice would be one invoice.
          { filename: 'invoice.pdf', content: Buffer.concat([validInvoicePdf(), Buffer.from(`%${tag}-${i}\n`)]) },
        ],
      }),
    };
  });
}

/**
 * `invoicebox scan` on a folder of .eml files: each document item attached to a mail of its own, each mail item as
 * it is, and valid control mails among them. One process reads the whole batch; a crash or hang costs all of it.
 */
export async function cliScan(
  items: HostileItem[],
  options: { env: Record<string, string>; dir: string; deadlineMs: number; memory: MemoryWatch; batch?: number },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const size = options.batch ?? 50;
  for (let start = 0; start < items.length; start += size) {
    const batch = items.slice(start, start + size);
    const folder = path.join(options.dir, `scan-${start}`);
    await fs.mkdir(folder);
    const controls = controlMails(`scan${start}`);
    await fs.writeFile(path.join(folder, 'c0.eml'), controls[0]!.bytes);
    for (const [i, item] of batch.entries())
      await fs.writeFile(path.join(folder, `h${start + i}.eml`), asMail(item, start + i));
    await fs.writeFile(path.join(folder, 'c1.eml'), controls[1]!.bytes);
    const run = await runCli(['scan', folder, '--json', '--verbose'], {
      ...options,
      cwd: options.dir,
      deadlineMs: options.deadlineMs * Math.max(1, batch.length / 4),
    });
    await fs.rm(folder, { recursive: true, force: true });
    const whole = cliVerdict(run);
    let found: { invoices: Array<{ message_id: string | null; amount: number | null }> } | null = null;
    try {
      found = JSON.parse(run.stdout);
    } catch {
      // judged below
    }
    const controlsFound =
      found?.invoices.filter((i) => i.message_id?.includes('@control.example') && i.amount === 1234.56).length ?? 0;
    for (const [i, item] of batch.entries()) {
      const origin = `h${start + i}.eml`;
      const mine = run.stderr.split('\n').filter((l) => l.includes(`/${origin}`));
      let outcome: { verdict: Verdict; detail: string };
      if (whole.verdict === 'crash' || whole.verdict === 'hang') outcome = whole;
      else if (run.code !== 0 || !found)
        outcome = { verdict: 'unclear_error', detail: `the scan failed: ${whole.detail}` };
      else if (controlsFound !== 2)
        outcome = { verdict: 'unclear_error', detail: `controls read: ${controlsFound} of 2` };
      else if (mine.length > 0 && !mine.every((l) => isClearMessage(l.replace(/^invoicebox: /, '')))) {
        outcome = { verdict: 'unclear_error', detail: mine.join(' | ').slice(0, 500) };
      } else outcome = { verdict: mine.length > 0 ? 'clear_error' : 'ok', detail: mine.join(' | ').slice(0, 300) };
      outcomes.push({ id: item.id, category: item.category, route: 'cli-scan', ...outcome });
    }
  }
  return outcomes;
}

// --- server ----------------------------------------------------------------------------------------------------------

export interface HostileServer {
  readonly api: CliProcess & { url: string };
  /** The server's data folders and TMPDIR are all in here: nothing may be written elsewhere. */
  root: string;
  /** Times a dead server was replaced to go on with the run (each death is also a `crash` verdict). */
  restarts: number;
  alive(): boolean;
  /** Starts a new server (a new data folder, a new owner) when the last one died. */
  ensureAlive(): Promise<void>;
  request(
    method: string,
    route: string,
    body?: Buffer | string,
    contentType?: string,
    anonymous?: boolean,
    timeoutMs?: number,
  ): Promise<Response>;
  stop(): Promise<void>;
}

/** `invoicebox start` on loopback, its data and temporary folders under `root`, an owner signed up. */
export async function startHostileServer(options: {
  root: string;
  env: Record<string, string>;
  memory: MemoryWatch;
}): Promise<HostileServer> {
  const tmp = path.join(options.root, 'tmp');
  await fs.mkdir(tmp, { recursive: true });
  const call = async (
    url: string,
    method: string,
    route: string,
    body?: Buffer | string,
    contentType?: string,
    token?: string,
    timeoutMs = 120_000,
  ) =>
    fetch(`${url}/api/v1${route}`, {
      method,
      headers: {
        ...(contentType ? { 'content-type': contentType } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : new Uint8Array(body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  let generation = 0;
  const launch = async () => {
    const dataDir = path.join(options.root, generation === 0 ? 'data' : `data-${generation}`);
    const api = await startApi({
      INVOICEBOX_DATA_DIR: dataDir,
      TMPDIR: tmp,
      LOG_LEVEL: 'warn',
      INVOICEBOX_SECRET: 'a-hostile-corpus-secret-of-32-characters!',
      ...options.env,
    });
    const unwatch = options.memory.watch(api.pid);
    const credentials = JSON.stringify({ email: 'owner@hostile.example', password: 'a-long-password-1' });
    // A restarted server on the same external database has its owner already: it signs in.
    let session = await call(api.url, 'POST', '/auth/local/signup', credentials, 'application/json');
    if (session.status !== 201)
      session = await call(api.url, 'POST', '/auth/local/signin', credentials, 'application/json');
    if (!session.ok) throw new Error(`sign-up failed: ${session.status} ${await session.text()}`);
    const token = ((await session.json()) as { token: string }).token;
    return { api, token, unwatch, dataDir };
  };
  let current = await launch();
  const isAlive = () => current.api.child.exitCode === null && current.api.child.signalCode === null;
  const server: HostileServer = {
    get api() {
      return current.api;
    },
    root: options.root,
    restarts: 0,
    alive: isAlive,
    async ensureAlive() {
      if (isAlive()) return;
      current.unwatch();
      // Its embedded PostgreSQL outlives it.
      const pid = Number(
        (await fs.readFile(path.join(current.dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0],
      );
      if (pid > 0) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // gone already
        }
      }
      generation += 1;
      server.restarts += 1;
      current = await launch();
    },
    request: (method, route, body, contentType, anonymous, timeoutMs) =>
      call(current.api.url, method, route, body, contentType, anonymous ? undefined : current.token, timeoutMs),
    stop: async () => {
      current.unwatch();
      await current.api.stop(10_000);
    },
  };
  return server;
}

interface JobView {
  status: string;
  error: string | null;
  message: string | null;
}

async function waitForJob(
  server: HostileServer,
  jobId: string,
  deadlineMs: number,
): Promise<JobView | 'hang' | 'crash'> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (!server.alive()) return 'crash';
    const response = await server.request('GET', `/jobs/${jobId}`).catch(() => null);
    if (response?.ok) {
      const job = (await response.json()) as JobView;
      if (job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled') return job;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return 'hang';
}

interface InvoiceView {
  details: string | null;
  amount_minor: number | null;
  attachments: Array<{ filename: string; read_error?: string | null }>;
}

async function allInvoices(server: HostileServer): Promise<InvoiceView[]> {
  const out: InvoiceView[] = [];
  for (let page = 1; ; page++) {
    const response = await server.request('GET', `/invoices?limit=200&page=${page}`);
    if (!response.ok) throw new Error(`invoice list: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { invoices: InvoiceView[] };
    out.push(...body.invoices);
    if (body.invoices.length < 200) return out;
  }
}

/**
 * The mail upload: document and mail items in one mbox with control invoices at its start, middle and end, imported
 * by the server's job. Each document item's invoice must be stored, its attachment read or carrying a clear error.
 */
export async function serverMail(
  server: HostileServer,
  items: HostileItem[],
  options: { deadlineMs: number; batch?: number },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const size = options.batch ?? 100;
  // Items with the same bytes as an earlier one share its invoice (one invoice per document).
  const firstWithBytes = new Map<string, number>();
  for (let start = 0; start < items.length; start += size) {
    const batch = items.slice(start, start + size);
    await server.ensureAlive();
    const controls = controlMails(`server${start}`);
    const half = Math.floor(batch.length / 2);
    const mails = [
      controls[0]!.bytes,
      ...batch.slice(0, half).map((item, i) => asMail(item, start + i)),
      controls[1]!.bytes,
      ...batch.slice(half).map((item, i) => asMail(item, start + half + i)),
      controls[2]!.bytes,
    ];
    const upload = await server
      .request('POST', '/imports/mail', buildMbox(mails), 'application/mbox')
      .catch((error: Error) => error);
    const judgeAll = (verdict: Verdict, detail: string) => {
      for (const item of batch)
        outcomes.push({ id: item.id, category: item.category, route: 'server-mail', verdict, detail });
    };
    if (upload instanceof Error || !upload.ok) {
      judgeAll(
        server.alive() ? 'unclear_error' : 'crash',
        upload instanceof Error ? upload.message : `upload ${upload.status}`,
      );
      continue;
    }
    const { job_id } = (await upload.json()) as { job_id: string };
    const job = await waitForJob(server, job_id, options.deadlineMs * Math.max(1, batch.length / 4));
    if (job === 'hang' || job === 'crash') {
      judgeAll(
        job,
        job === 'hang'
          ? 'the import job of the batch passed its deadline'
          : `the server died during the import: ${server.api.output().slice(-1500)}`,
      );
      continue;
    }
    const invoices = await allInvoices(server);
    const bySubject = new Map(invoices.map((i) => [i.details ?? '', i]));
    const controlsStored = controls.filter((c) => bySubject.get(c.subject)?.amount_minor === 123456).length;
    for (const [i, item] of batch.entries()) {
      const key = item.channel === 'document' ? createHash('sha256').update(item.bytes()).digest('hex') : `mail-${i}`;
      if (!firstWithBytes.has(key)) firstWithBytes.set(key, start + i);
      let outcome: { verdict: Verdict; detail: string };
      if (job.status !== 'completed')
        outcome = { verdict: 'unclear_error', detail: `import job ${job.status}: ${job.error}` };
      else if (controlsStored !== 3)
        outcome = { verdict: 'unclear_error', detail: `controls stored: ${controlsStored} of 3` };
      else if (item.channel === 'mail') outcome = { verdict: 'ok', detail: '' };
      else if (item.bytes().length === 0 || item.bytes().length > MAX_ATTACHMENT_BYTES) {
        // The mail reader keeps no empty attachment, and records one over its limit as skipped.
        outcome = { verdict: 'ok', detail: 'attachment empty or over the mail limit: not read' };
      } else if (!isDocumentAttachment(item.filename.slice(0, 200))) {
        // An .xml attachment is no invoice document by the rules (e-invoice XML reaches the server inside a PDF).
        outcome = { verdict: 'ok', detail: 'not a document attachment: not read' };
      } else {
        const invoice = bySubject.get(`Invoice hostile-${firstWithBytes.get(key)}`);
        const readError = invoice?.attachments[0]?.read_error;
        if (!invoice) outcome = { verdict: 'unclear_error', detail: 'its invoice was not stored' };
        else if (readError) {
          outcome = isClearMessage(readError)
            ? { verdict: 'clear_error', detail: readError }
            : { verdict: 'unclear_error', detail: readError.slice(0, 500) };
        } else outcome = { verdict: 'ok', detail: '' };
      }
      outcomes.push({ id: item.id, category: item.category, route: 'server-mail', ...outcome });
    }
  }
  return outcomes;
}

/** Each archive uploaded as a Takeout .zip and imported by its own job, which must end with a clear result. */
export async function serverZip(
  server: HostileServer,
  items: HostileItem[],
  options: { deadlineMs: number },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const item of items) {
    await server.ensureAlive();
    const push = (verdict: Verdict, detail: string) =>
      outcomes.push({ id: item.id, category: item.category, route: 'server-zip', verdict, detail });
    const upload = await server
      .request('POST', '/imports/mail', item.bytes(), 'application/zip')
      .catch((error: Error) => error);
    if (upload instanceof Error) {
      push(server.alive() ? 'unclear_error' : 'crash', upload.message);
      continue;
    }
    if (!upload.ok) {
      const body = await upload.text();
      const error = safeJson(body)?.error as string | undefined;
      push(
        upload.status < 500 && isClearMessage(error) ? 'clear_error' : 'unclear_error',
        `${upload.status} ${String(error ?? body).slice(0, 300)}`,
      );
      continue;
    }
    const { job_id } = (await upload.json()) as { job_id: string };
    const job = await waitForJob(server, job_id, options.deadlineMs);
    if (job === 'hang' || job === 'crash') push(job, 'the import job did not end');
    else if (job.status === 'completed') push('ok', job.message ?? '');
    else push(isClearMessage(job.error) ? 'clear_error' : 'unclear_error', `${job.status}: ${job.error}`);
  }
  return outcomes;
}

/** Each CSV uploaded as a bank statement; its analysis must end processed or failed with a clear error. */
export async function serverStatement(
  server: HostileServer,
  items: HostileItem[],
  options: { deadlineMs: number },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const item of items) {
    await server.ensureAlive();
    const push = (verdict: Verdict, detail: string) =>
      outcomes.push({ id: item.id, category: item.category, route: 'server-statement', verdict, detail });
    const body = JSON.stringify({ filename: item.filename, file_data: item.bytes().toString('base64') });
    const upload = await server
      .request('POST', '/bank-statements/upload', body, 'application/json')
      .catch((e: Error) => e);
    if (upload instanceof Error) {
      push(server.alive() ? 'unclear_error' : 'crash', upload.message);
      continue;
    }
    if (!upload.ok) {
      const text = await upload.text();
      const error = safeJson(text)?.error as string | undefined;
      push(
        upload.status < 500 && isClearMessage(error) ? 'clear_error' : 'unclear_error',
        `${upload.status} ${String(error ?? text).slice(0, 300)}`,
      );
      continue;
    }
    const { bank_statement_id, job_id } = (await upload.json()) as { bank_statement_id: string; job_id: string };
    const job = await waitForJob(server, job_id, options.deadlineMs);
    if (job === 'hang' || job === 'crash') {
      push(job, 'the analysis job did not end');
      continue;
    }
    const statement = (await (await server.request('GET', `/bank-statements/${bank_statement_id}`)).json()) as {
      status?: string;
      error?: string | null;
      statement?: { status: string; error: string | null };
    };
    const view = statement.statement ?? statement;
    if (view.status === 'processed') push('ok', '');
    else push(isClearMessage(view.error) ? 'clear_error' : 'unclear_error', `${view.status}: ${view.error}`);
  }
  return outcomes;
}

/** Each API item as one request: a 4xx with an error message is clear, a 5xx is not, no answer is a hang. */
export async function serverApi(
  server: HostileServer,
  items: HostileItem[],
  options: { deadlineMs: number },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const item of items) {
    await server.ensureAlive();
    const request = item.request!();
    const push = (verdict: Verdict, detail: string) =>
      outcomes.push({ id: item.id, category: item.category, route: 'server-api', verdict, detail });
    const response = await server
      .request(request.method, request.path, request.body, request.contentType, request.anonymous, options.deadlineMs)
      .catch((error: Error) => error);
    if (response instanceof Error) {
      if (!server.alive()) push('crash', response.message);
      else push(response.name === 'TimeoutError' ? 'hang' : 'unclear_error', response.message);
      continue;
    }
    const text = await response.text();
    if (response.status >= 500) push('unclear_error', `${response.status} ${text.slice(0, 300)}`);
    else if (response.status >= 400) {
      const error = safeJson(text)?.error;
      push(
        isClearMessage(typeof error === 'string' ? error : text) ? 'clear_error' : 'unclear_error',
        `${response.status} ${String(error ?? text).slice(0, 200)}`,
      );
    } else push('ok', String(response.status));
  }
  return outcomes;
}

function safeJson(text: string): { error?: unknown } | null {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// --- checks ----------------------------------------------------------------------------------------------------------

/** Paths the hostile names aim at: none may exist after a run. */
export function escapeTargets(): string[] {
  const names = [
    ...Object.values(HOSTILE_FILENAMES),
    '../../../../tmp/invoicebox-hostile-zip.mbox',
    '/tmp/invoicebox-hostile-zip-abs.mbox',
    'evil.mbox',
  ];
  const targets = new Set<string>();
  for (const name of names) {
    if (name.includes('\0')) continue;
    const base = path.basename(name.replace(/\\/g, '/'));
    if (!base || base.length > 200) continue;
    for (const dir of [os.tmpdir(), '/tmp', path.dirname(os.tmpdir()), serverRoot, path.dirname(serverRoot)]) {
      targets.add(path.join(dir, base));
    }
  }
  return [...targets];
}

export function escapedFiles(before: Set<string>): string[] {
  return escapeTargets().filter((target) => existsSync(target) && !before.has(target));
}

/** Entries of `dir` that are not in `allowed` (what a process wrote beside its own folders). */
export async function strayEntries(dir: string, allowed: string[]): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => !allowed.includes(n));
}

// --- summary ---------------------------------------------------------------------------------------------------------

export interface Summary {
  items: number;
  runs: number;
  verdicts: Record<Verdict, number>;
  byRoute: Record<string, Record<Verdict, number>>;
  byCategory: Record<string, Record<Verdict, number>>;
}

const empty = (): Record<Verdict, number> => ({ ok: 0, clear_error: 0, unclear_error: 0, crash: 0, hang: 0 });

export function summarize(outcomes: Outcome[]): Summary {
  const summary: Summary = {
    items: new Set(outcomes.map((o) => o.id)).size,
    runs: outcomes.length,
    verdicts: empty(),
    byRoute: {},
    byCategory: {},
  };
  for (const o of outcomes) {
    summary.verdicts[o.verdict] += 1;
    summary.byRoute[o.route] ??= empty();
    summary.byRoute[o.route]![o.verdict] += 1;
    summary.byCategory[o.category] ??= empty();
    summary.byCategory[o.category]![o.verdict] += 1;
  }
  return summary;
}

export async function forEach<T>(
  items: T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
      while (next < items.length) {
        const index = next++;
        await fn(items[index]!, index);
      }
    }),
  );
}

// --- a whole run -----------------------------------------------------------------------------------------------------

export interface HostileRun {
  outcomes: Outcome[];
  /** Peak resident bytes of one CLI process tree (the command and its sandbox child). */
  cliPeak: number;
  /** Peak resident bytes of the server process tree (server and sandbox children, PostgreSQL excepted). */
  serverPeak: number;
  /** The largest single process seen in either. */
  processPeak: number;
  serverAliveAtEnd: boolean;
  /** Times the server died and was started again to go on. */
  serverRestarts: number;
  escaped: string[];
  stray: string[];
  seconds: Record<string, number>;
}

export interface HostileRunOptions {
  /** Items that also go through `invoicebox extract`, one process each (documents only). */
  extract: HostileItem[];
  /** The server's database; unset, it runs its embedded PostgreSQL in its data folder. */
  databaseUrl?: string;
  /** Environment of every process (limits). */
  env: Record<string, string>;
  /** Per-item deadline. */
  deadlineMs: number;
  concurrency?: number;
  log?: (line: string) => void;
}

/** Every item through every route that takes it: CLI first, then one server. */
export async function runHostile(items: HostileItem[], options: HostileRunOptions): Promise<HostileRun> {
  const log = options.log ?? (() => {});
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-hostile-'));
  // An embedded PostgreSQL runs as its own user, which must be able to enter the data folder.
  await fs.chmod(root, 0o755);
  const before = new Set(escapeTargets().filter((t) => existsSync(t)));
  const cliMemory = new MemoryWatch();
  const serverMemory = new MemoryWatch();
  const seconds: Record<string, number> = {};
  const outcomes: Outcome[] = [];
  const timed = async (name: string, fn: () => Promise<Outcome[]>) => {
    const started = Date.now();
    const got = await fn();
    seconds[name] = (Date.now() - started) / 1000;
    outcomes.push(...got);
    const bad = got.filter((o) => o.verdict !== 'ok' && o.verdict !== 'clear_error').length;
    log(`${name}: ${got.length} runs in ${seconds[name]!.toFixed(0)} s, ${bad} not ok or clear`);
  };
  const documents = items.filter((i) => i.channel === 'document');
  const mails = items.filter((i) => i.channel === 'mail');
  const csvs = items.filter((i) => i.channel === 'csv');
  const zips = items.filter((i) => i.channel === 'zip');
  const apis = items.filter((i) => i.channel === 'api');
  const cliDir = path.join(root, 'cli');
  await fs.mkdir(cliDir);
  // The CLI's own temporary files stay in its folder too.
  const cliEnv = { ...options.env, TMPDIR: cliDir, INVOICEBOX_DATA_DIR: path.join(cliDir, 'data') };
  const cli = {
    env: cliEnv,
    dir: cliDir,
    deadlineMs: options.deadlineMs,
    memory: cliMemory,
    concurrency: options.concurrency ?? 1,
  };
  let server: HostileServer | null = null;
  let serverAliveAtEnd = false;
  let serverRestarts = 0;
  try {
    await timed('cli extract', () => cliExtract(options.extract, cli));
    await timed('cli scan', () => cliScan([...documents, ...mails], cli));
    await timed('cli statement', () => cliStatement(csvs, cli));
    server = await startHostileServer({
      root: path.join(root, 'server'),
      env: {
        // Servers people name on loopback are refused at once (a shared deployment's setting), instead of being tried.
        ALLOW_PRIVATE_NETWORK_TARGETS: 'false',
        ...options.env,
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      },
      memory: serverMemory,
    });
    const srv = server;
    const job = { deadlineMs: options.deadlineMs };
    await timed('server mail upload', () => serverMail(srv, [...documents, ...mails], job));
    await timed('server zip upload', () => serverZip(srv, zips, job));
    await timed('server statement upload', () => serverStatement(srv, csvs, job));
    await timed('server api', () => serverApi(srv, apis, job));
    serverRestarts = srv.restarts;
    serverAliveAtEnd =
      srv.alive() &&
      (await srv.request('GET', '/health').then(
        (r) => r.ok,
        () => false,
      ));
  } finally {
    await server?.stop();
    cliMemory.stop();
    serverMemory.stop();
  }
  const stray = [
    ...(await strayEntries(root, ['cli', 'server'])),
    ...(await strayEntries(path.join(root, 'server'), ['tmp']))
      .filter((n) => !/^data(-\d+)?$/.test(n))
      .map((n) => `server/${n}`),
  ];
  const escaped = escapedFiles(before);
  await fs.rm(root, { recursive: true, force: true });
  return {
    outcomes,
    cliPeak: cliMemory.peakTotal,
    serverPeak: serverMemory.peakTotal,
    processPeak: Math.max(cliMemory.peakProcess, serverMemory.peakProcess),
    serverAliveAtEnd,
    serverRestarts,
    escaped,
    stray,
    seconds,
  };
}
