import { type ChildProcess, fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { AppError } from '../errors';

/**
 * A pool of child processes that run work on untrusted bytes (PDF, images, OCR, XML) so that whatever native code or
 * unbounded memory does to them costs one document, never the server. Each child:
 * - has a V8 heap limit (`--max-old-space-size`) and a resident-size watchdog here (native allocations, WebAssembly
 *   memory and buffers are outside the V8 heap: only the kernel's count of resident pages sees them);
 * - gets a time limit per task, after which it is killed (a synchronous loop in native code or a regex ignores any
 *   cooperative timeout);
 * - runs under Node's permission model where the runtime has one: it may read its own code and the paths it is given,
 *   write nothing, and start no process; its environment holds no secret of the server;
 * - is reused for the next task, replaced after it dies, recycled after `maxTasksPerProcess` tasks or when it stays
 *   large, and stopped after `idleMs` without work.
 * A death is reported as a SandboxError with a person-readable message; the caller decides what to store.
 */

export type SandboxFailure = 'document_crashed' | 'document_out_of_memory' | 'document_timeout';

export class SandboxError extends AppError {
  constructor(
    readonly failure: SandboxFailure,
    message: string,
  ) {
    super(message, { code: failure, status: 422 });
  }
}

export interface SandboxPoolOptions {
  /** The child's module (ESM file URL). */
  entry: URL;
  /** Extra Node options for the child (for example `--import tsx` when running from TypeScript sources). */
  execArgv?: string[];
  /** Processes at most. */
  size: number;
  /** Resident-size limit per process; the V8 heap limit is set a little below it. */
  memoryMb: number;
  /** Paths the child may read besides its own code (Node's permission model). */
  readPaths: string[];
  /** Run without the permission model (only where the runtime lacks it, or for diagnosis). */
  unrestricted?: boolean;
  /** A process without work for this long is stopped (its memory goes back to the system). */
  idleMs?: number;
  /** A process is replaced after this many tasks (allocator fragmentation, caches). */
  maxTasksPerProcess?: number;
  /** Environment variables handed to the child (nothing of the server's own environment is). */
  env?: Record<string, string>;
  /** Told about deaths and replacements (never about the bytes). */
  log?: (message: string, detail: Record<string, unknown>) => void;
}

/**
 * A task that reports progress (progress.ts) gets its time limit again from each report, but never runs longer than
 * this many time limits in all: a scanned statement of 12 pages at one limit per page fits, a document that keeps
 * reporting does not run for ever.
 */
export const PROGRESS_CEILING = 15;

interface Task {
  id: number;
  name: string;
  input: unknown;
  timeoutMs: number;
  startedAt?: number;
  /** Already run again once, in a fresh process, after its first process ran out of memory. */
  retried?: boolean;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Reply {
  id: number;
  /** Not an answer: the task read one more page (progress.ts). */
  progress?: true;
  ok?: boolean;
  value?: unknown;
  error?: { code?: string; message: string };
}

/** Linux only: the kernel's count of resident pages of a process, in bytes; null where it cannot be read. */
async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'latin1');
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Node's permission flags for this runtime: `--permission` (22.13+, 23.5+) or the experimental spelling of Node 20. */
function permissionFlags(readPaths: string[]): string[] | null {
  const flags = process.allowedNodeEnvironmentFlags;
  const main = flags.has('--permission')
    ? '--permission'
    : flags.has('--experimental-permission')
      ? '--experimental-permission'
      : null;
  if (!main) return null;
  const out = [main, ...readPaths.map((p) => `--allow-fs-read=${p}`), '--allow-worker'];
  // Native add-ons (the canvas used to render pages for OCR) are refused under the permission model unless allowed.
  if (flags.has('--allow-addons')) out.push('--allow-addons');
  return out;
}

class SandboxProcess {
  readonly child: ChildProcess;
  task: Task | null = null;
  tasksRun = 0;
  /** Why this process is being killed by us (so its exit is reported as that, not as a crash). */
  killedFor: { failure: SandboxFailure; message: string } | null = null;
  private stderrTail = '';
  private timer: NodeJS.Timeout | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  exited = false;

  constructor(
    private readonly pool: SandboxPool,
    private readonly options: SandboxPoolOptions,
  ) {
    const heapMb = Math.max(64, Math.floor(options.memoryMb * 0.75));
    const permissions = options.unrestricted ? [] : (permissionFlags(options.readPaths) ?? []);
    this.child = fork(options.entry, [], {
      execArgv: [
        ...(options.execArgv ?? []),
        ...permissions,
        `--max-old-space-size=${heapMb}`,
        '--no-warnings',
        // A stack overflow in a parser is a RangeError we catch, not a crash; keep the default stack.
      ],
      env: { ...options.env, NODE_OPTIONS: '' },
      cwd: os.tmpdir(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
    this.child.on('message', (reply: Reply) => this.onReply(reply));
    this.child.on('error', () => {
      // Reported through 'exit'; a fork that cannot start at all is reported there too.
    });
    this.child.on('exit', (code, signal) => this.onExit(code, signal));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  start(task: Task): void {
    clearTimeout(this.idleTimer);
    this.task = task;
    this.tasksRun += 1;
    task.startedAt = Date.now();
    this.armTimer(task, task.timeoutMs);
    this.watchdog = setInterval(() => void this.checkMemory(), 100);
    this.child.send({ id: task.id, name: task.name, input: task.input }, (error) => {
      if (error && this.task === task)
        this.kill({ failure: 'document_crashed', message: 'document could not be read: the reader stopped' });
    });
  }

  private armTimer(task: Task, ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      // Never "0 s": a timer may fire a millisecond before the clock says the limit (500 ms) has passed.
      const seconds = Math.max(1, Math.round((Date.now() - (task.startedAt ?? Date.now())) / 1000));
      this.kill({
        failure: 'document_timeout',
        message: `document could not be read: it took longer than ${seconds} s`,
      });
    }, ms);
  }

  /** The task reported progress: its time limit starts again, within the ceiling. */
  private extend(task: Task): void {
    const now = Date.now();
    const ceiling = (task.startedAt ?? now) + task.timeoutMs * PROGRESS_CEILING;
    this.armTimer(task, Math.max(0, Math.min(now + task.timeoutMs, ceiling) - now));
  }

  private async checkMemory(): Promise<void> {
    const pid = this.child.pid;
    if (!pid || this.exited || !this.task) return;
    const bytes = await residentBytes(pid);
    if (bytes !== null && bytes > this.options.memoryMb * 1024 * 1024) {
      this.kill({
        failure: 'document_out_of_memory',
        message: `document could not be read: out of memory at ${this.options.memoryMb} MB`,
      });
    }
  }

  /** Large after a task: replace it rather than keep a process that will hit the limit on a normal document. */
  async tooLarge(): Promise<boolean> {
    const bytes = this.child.pid ? await residentBytes(this.child.pid) : null;
    return bytes !== null && bytes > this.options.memoryMb * 1024 * 1024 * 0.7;
  }

  kill(reason: { failure: SandboxFailure; message: string } | null): void {
    if (this.exited) return;
    this.killedFor ??= reason;
    this.child.kill('SIGKILL');
  }

  private finishTask(): Task | null {
    clearTimeout(this.timer);
    clearInterval(this.watchdog);
    const task = this.task;
    this.task = null;
    return task;
  }

  private onReply(reply: Reply): void {
    if (!this.task || reply.id !== this.task.id) return;
    if (reply.progress) {
      this.extend(this.task);
      return;
    }
    const task = this.finishTask()!;
    if (reply.ok) task.resolve(reply.value);
    else {
      const error = new Error(reply.error?.message ?? 'the document task failed') as Error & { code?: string };
      if (reply.error?.code) error.code = reply.error.code;
      task.reject(error);
    }
    this.pool.released(this);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    clearTimeout(this.idleTimer);
    const task = this.finishTask();
    if (task) {
      const failure = this.killedFor ?? this.describeDeath(code, signal);
      this.options.log?.('document sandbox process ended during a task', {
        pid: this.child.pid,
        code,
        signal,
        failure: failure.failure,
        task: task.name,
        stderr: this.stderrTail.slice(-500),
      });
      // A process that read other documents before holds their caches (OCR models, pdf.js) too: the document gets
      // one more try in a fresh process before its memory is blamed on it.
      if (failure.failure === 'document_out_of_memory' && this.tasksRun > 1 && !task.retried) {
        task.retried = true;
        this.pool.requeue(task);
      } else task.reject(new SandboxError(failure.failure, failure.message));
    }
    this.pool.exited(this);
  }

  private describeDeath(
    code: number | null,
    signal: NodeJS.Signals | null,
  ): { failure: SandboxFailure; message: string } {
    // V8 prints this before aborting when the heap limit is reached.
    if (/heap out of memory|Reached heap limit|Allocation failed/i.test(this.stderrTail)) {
      return {
        failure: 'document_out_of_memory',
        message: `document could not be read: out of memory at ${this.options.memoryMb} MB`,
      };
    }
    const how = signal ? `${signal}` : `exit code ${code}`;
    return { failure: 'document_crashed', message: `document could not be read: the reader crashed (${how})` };
  }
}

export class SandboxPool {
  private readonly processes = new Set<SandboxProcess>();
  private readonly idle: SandboxProcess[] = [];
  private readonly waiting: Task[] = [];
  private seq = 0;
  private closed = false;

  constructor(private readonly options: SandboxPoolOptions) {}

  /** Runs task `name` of the child on `input` within `timeoutMs`; rejects with SandboxError when the child dies. */
  run<T>(name: string, input: unknown, timeoutMs: number): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the document sandbox is closed'));
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({
        id: ++this.seq,
        name,
        input,
        timeoutMs,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  /** Process ids of the live children (tests, diagnostics). */
  pids(): number[] {
    return [...this.processes].map((p) => p.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Stops every child; tasks still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.reject(new Error('the document sandbox is closed'));
    const exits = [...this.processes].map(
      (p) => new Promise<void>((resolve) => (p.exited ? resolve() : p.child.once('exit', () => resolve()))),
    );
    for (const p of this.processes) p.kill(null);
    await Promise.all(exits);
  }

  /** A task finished normally: keep the process for the next one unless it should be replaced. */
  released(process: SandboxProcess): void {
    void (async () => {
      const max = this.options.maxTasksPerProcess ?? 500;
      const replace = this.closed || process.tasksRun >= max || (await process.tooLarge());
      if (process.exited) return;
      if (replace) {
        process.kill(null);
        return;
      }
      this.idle.push(process);
      process.idleTimer = setTimeout(() => {
        const at = this.idle.indexOf(process);
        if (at >= 0) this.idle.splice(at, 1);
        process.kill(null);
      }, this.options.idleMs ?? 120_000);
      process.idleTimer.unref();
      this.dispatch();
    })();
  }

  /** A task to run again first, in whichever process is free next (exited() dispatches it). */
  requeue(task: Task): void {
    if (this.closed) task.reject(new Error('the document sandbox is closed'));
    else this.waiting.unshift(task);
  }

  exited(process: SandboxProcess): void {
    this.processes.delete(process);
    const at = this.idle.indexOf(process);
    if (at >= 0) this.idle.splice(at, 1);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      let process = this.idle.pop();
      if (!process) {
        if (this.processes.size >= this.options.size) return;
        process = new SandboxProcess(this, this.options);
        this.processes.add(process);
      }
      process.start(this.waiting.shift()!);
    }
  }
}
