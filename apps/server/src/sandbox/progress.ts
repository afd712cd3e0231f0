/**
 * A long task in a document-sandbox child (OCR of a scanned statement, one page after another) tells the pool it is
 * still getting somewhere; the pool then gives it its time limit again from that moment, up to a ceiling
 * (sandbox-pool.ts). A loop stuck in native code sends nothing and is killed on time as before. Outside a sandbox
 * child (tests, in-process evaluation) this does nothing.
 */

let runningTask: number | null = null;

/** Set by the child's message loop around each task. */
export function setRunningSandboxTask(id: number | null): void {
  runningTask = id;
}

/** One more unit of work done (a page read): the running task's time limit starts again. */
export function reportSandboxProgress(): void {
  if (runningTask === null || !process.send || !process.connected) return;
  process.send({ id: runningTask, progress: true });
}
