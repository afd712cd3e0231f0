import type { Command } from 'commander';
import { loadRuntime } from './lazy';
import { once } from './once';
import { installProcessErrorPolicy } from './process-errors';
import { onShutdownSignal } from './shutdown';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run job workers only (start any number of them beside `start` to scale out)')
    .option('-c, --concurrency <n>', 'jobs run at once by this process (default: WORKER_CONCURRENCY)')
    .action(async (options: { concurrency?: string }) => {
      const { loadConfig } = await import('../config');
      const config = loadConfig();
      const { createRuntime, createLogger } = await loadRuntime();
      const logger = createLogger(config.logLevel);
      const concurrency = options.concurrency ? Number(options.concurrency) : config.workerConcurrency;
      if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
        throw new Error(`--concurrency must be a whole number from 1 to 64, not '${options.concurrency}'`);
      }
      let stop = async () => {};
      installProcessErrorPolicy({ logger, stop: () => stop() });
      const runtime = await createRuntime(config, logger, { role: 'worker' });
      // What the server writes from now on (documents, keys, temp files) is for its own user only; not before:
      // initdb, as root, hands the `postgres` user a password file.
      process.umask(0o077);
      stop = once(() => runtime.close());
      await runtime.startWorkers(concurrency);
      logger.info({ worker: runtime.queue.id, concurrency, engine: runtime.database.engine }, 'worker started');
      onShutdownSignal(stop, logger);
    });
}
