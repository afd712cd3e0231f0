import type { Command } from 'commander';
import { ConfigError } from '../errors';
import { loadRuntime } from './lazy';
import { once } from './once';
import { installProcessErrorPolicy } from './process-errors';
import { onShutdownSignal } from './shutdown';

export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('start the web app, the API and (unless INVOICEBOX_WORKERS=false) the job workers in one process')
    .action(async () => {
      const { loadConfig } = await import('../config');
      const config = loadConfig();
      const { createRuntime, createLogger } = await loadRuntime();
      const { buildApp } = await import('../http/app');
      const logger = createLogger(config.logLevel);
      // From here on, an error nothing caught is logged and either survived or ends the process cleanly (exit 1).
      let stop = async () => {};
      installProcessErrorPolicy({ logger, stop: () => stop() });
      const runtime = await createRuntime(config, logger, { role: 'start' });
      // What the server writes from now on (documents, keys, temp files) is for its own user only; not before:
      // initdb, as root, hands the `postgres` user a password file.
      process.umask(0o077);
      const closeRuntime = once(() => runtime.close());
      stop = closeRuntime;
      const app = await buildApp({
        config,
        logger,
        health: runtime.health,
        jobs: runtime.jobs,
        authenticate: runtime.authenticate,
        auth: runtime.auth,
        routes: runtime.routes,
      });

      try {
        await app.listen({ port: config.port, host: config.host });
      } catch (error) {
        await closeRuntime();
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
          throw new ConfigError(`PORT ${config.port} is already in use on ${config.host}; set PORT to a free port`);
        }
        if ((error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') {
          throw new ConfigError(`HOST ${config.host} is not an address of this machine`);
        }
        throw error;
      }
      if (config.workersInProcess) await runtime.startWorkers(config.workerConcurrency);
      const smtpPort = await runtime.startInboundSmtp().catch(async (error: NodeJS.ErrnoException) => {
        await app.close();
        await closeRuntime();
        if (error.code === 'EADDRINUSE' || error.code === 'EACCES') {
          throw new ConfigError(
            `SMTP_INBOUND_PORT ${config.inboundSmtp?.port} cannot be opened on ${config.inboundSmtp?.host} (${error.code})`,
          );
        }
        throw error;
      });

      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      const host = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(config.host) ? 'localhost' : config.host;
      console.log(`Invoicebox is running at http://${host}:${port}`);
      if (smtpPort !== undefined) {
        console.log(`Invoice addresses (@${config.inboundSmtp?.domain}) are received on SMTP port ${smtpPort}`);
      }

      // In-flight requests finish first (new ones get 503), then running jobs are released for retry.
      const stopAll = once(async () => {
        await app.close();
        await closeRuntime();
      });
      stop = stopAll;
      onShutdownSignal(stopAll, logger);
    });
}
