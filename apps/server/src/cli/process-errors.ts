import { errorMessage, isDatabaseUnavailable } from '../errors';
import type { Logger } from '../logger';

/**
 * What `start` and `worker` do with an error nothing else caught (`unhandledRejection`, `uncaughtException`):
 * - a connection that failed or dropped (the database away, a peer that reset): logged, and the process keeps
 *   serving. It holds no half-done state: the pool opens new connections, /health reports the database, jobs wait
 *   for it.
 * - anything else: logged as fatal with what it was, then the process stops as on SIGTERM (requests finish, jobs
 *   are released for retry) within `stopTimeoutMs` and exits with code 1, so that a supervisor restarts it. Never a
 *   silent exit.
 */
export type ProcessErrorOrigin = 'unhandledRejection' | 'uncaughtException';

export interface ProcessErrorPolicyOptions {
  logger: Pick<Logger, 'warn' | 'fatal'>;
  /** The graceful stop of the process (the same as on SIGTERM). */
  stop: () => Promise<void>;
  exit?: (code: number) => void;
  stopTimeoutMs?: number;
}

/** Whether the process may go on after `error` reached the top unhandled. */
export function isSurvivable(error: unknown): boolean {
  return isDatabaseUnavailable(error);
}

export function createProcessErrorPolicy(options: ProcessErrorPolicyOptions) {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let exiting = false;
  return {
    /** Resolves when the error was survived, or once the process has been told to exit. */
    async handle(error: unknown, origin: ProcessErrorOrigin): Promise<'survived' | 'exited'> {
      if (isSurvivable(error)) {
        options.logger.warn(
          { err: error, origin },
          `connection error nothing handled (${errorMessage(error)}); the process goes on`,
        );
        return 'survived';
      }
      if (exiting) {
        options.logger.fatal({ err: error, origin }, 'second fatal error while stopping: exiting now');
        exit(1);
        return 'exited';
      }
      exiting = true;
      options.logger.fatal(
        { err: error, origin },
        `unexpected error (${errorMessage(error)}); stopping with exit code 1 so that a supervisor restarts the process`,
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        options.stop().catch((stopError: unknown) => {
          options.logger.fatal({ err: stopError }, 'the stop after a fatal error failed');
        }),
        new Promise((resolve) => {
          timer = setTimeout(resolve, options.stopTimeoutMs ?? 15_000);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
      exit(1);
      return 'exited';
    },
  };
}

/** Installs the policy on the process; returns a function that removes it (tests). */
export function installProcessErrorPolicy(options: ProcessErrorPolicyOptions): () => void {
  const policy = createProcessErrorPolicy(options);
  const onRejection = (reason: unknown) => void policy.handle(reason, 'unhandledRejection');
  const onException = (error: Error) => void policy.handle(error, 'uncaughtException');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
