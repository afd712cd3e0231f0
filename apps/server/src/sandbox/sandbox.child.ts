/**
 * The message loop of a document-sandbox child process (see sandbox-pool.ts): runs one task at a time on the input
 * the pool sends and answers with the result or an error as data. A child never reads the server's configuration or
 * database; what it may touch on disk is limited by Node's permission model where the runtime has it.
 */

import { setRunningSandboxTask } from './progress';

/** A task takes structured-cloneable input (bytes as Uint8Array) and returns structured-cloneable output. */
export type SandboxTasks = Record<string, (input: never) => Promise<unknown>>;

interface Request {
  id: number;
  name: string;
  input: unknown;
}

export function serveSandboxTasks(tasks: SandboxTasks): void {
  if (!process.send) {
    console.error('sandbox: start this module through the SandboxPool (it needs an IPC channel)');
    process.exit(2);
  }
  process.on('message', (request: Request) => {
    void (async () => {
      try {
        const task = tasks[request.name];
        if (!task) throw Object.assign(new Error(`unknown sandbox task '${request.name}'`), { code: 'unknown_task' });
        setRunningSandboxTask(request.id);
        const value = await task(request.input as never);
        setRunningSandboxTask(null);
        process.send!({ id: request.id, ok: true, value });
      } catch (error) {
        setRunningSandboxTask(null);
        const code = (error as { code?: unknown }).code;
        process.send!({
          id: request.id,
          ok: false,
          error: {
            code: typeof code === 'string' ? code : 'task_failed',
            message: error instanceof Error ? error.message : String(error),
          },
        });
      }
    })();
  });
  // The parent going away (killed, crashed) must not leave this process behind.
  process.on('disconnect', () => process.exit(0));
}
