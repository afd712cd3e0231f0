import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SMTPServer } from 'smtp-server';
import { AccountsRepository } from './accounts/accounts.repository';
import { accountsRoutes } from './accounts/accounts.routes';
import { AccountsService } from './accounts/accounts.service';
import { ImapAccountsService } from './accounts/imap-accounts.service';
import { AuthRepository } from './auth/auth.repository';
import type { AuthModule } from './auth/auth.routes';
import { LocalAuthService } from './auth/local-auth.service';
import { MfaRepository } from './auth/mfa.repository';
import { MfaService } from './auth/mfa.service';
import { ProviderTokensRepository, ProviderTokensService } from './auth/provider-tokens';
import { loadCheckedSecretBox } from './auth/secret-key-check';
import { type Principal, SessionsService } from './auth/sessions.service';
import { SigningKeys, SigningKeysRepository } from './auth/signing-keys';
import { TokenIssuer } from './auth/tokens';
import { bankRoutes } from './bank/bank.routes';
import { BankStatementsService } from './bank/bank.service';
import { reconcileTransactions } from './bank/reconciler';
import { readStatementInSandbox } from './bank/statement.sandbox';
import { clientErrorsRoutes } from './client-errors/client-errors.routes';
import { ClientErrorsService } from './client-errors/client-errors.service';
import { type Config, documentSettings, type OidcProviderConfig } from './config';
import { tightenDataDir } from './data-dir-permissions';
import { type Database, openDatabase } from './db/client';
import type { LockRole } from './db/data-dir-lock';
import { runMigrations } from './db/migrate';
import { createDriveFactory } from './drive/drive.factory';
import { driveRoutes } from './drive/drive.routes';
import { DriveService } from './drive/drive.service';
import { ConfigError } from './errors';
import { closeDocumentSandbox, configureDocumentSandbox } from './extraction/index';
import { FORWARDING_JOB } from './forwarding/forwarding.constants';
import { ForwardingRepository } from './forwarding/forwarding.repository';
import { forwardingRoutes } from './forwarding/forwarding.routes';
import { ForwardingService } from './forwarding/forwarding.service';
import { createSenderFactory } from './forwarding/sender.factory';
import { SmtpRelayService } from './forwarding/smtp-relay.service';
import type { HealthProbe } from './http/health.routes';
import { mailImportRoutes } from './imports/mail-import.routes';
import { MailImportService } from './imports/mail-import.service';
import { inboundRoutes } from './inbound/inbound.routes';
import { InboundAddressService } from './inbound/inbound-address.service';
import { createInboundSmtpServer } from './inbound/smtp-inbound.server';
import { createBlobStore, verifyBlobStore } from './invoices/blob-store.factory';
import { DocumentReader } from './invoices/document-reader';
import { FieldsRefreshService } from './invoices/fields-refresh.service';
import { IngestService } from './invoices/ingest.service';
import { invoicesRoutes } from './invoices/invoices.routes';
import { InvoicesService } from './invoices/invoices.service';
import { JobQueue } from './jobs/job-queue';
import { JobsRepository } from './jobs/jobs.repository';
import { JobsService } from './jobs/jobs.service';
import { type AppJobRegistry, createJobRegistry } from './jobs/registry';
import type { Logger } from './logger';
import { GOOGLE_AUTHORIZATION_PARAMS, GOOGLE_SCOPES, OidcClient } from './oidc/oidc.client';
import { OidcRepository } from './oidc/oidc.repository';
import { oidcRoutes } from './oidc/oidc.routes';
import { OidcSignInService } from './oidc/oidc-sign-in.service';
import { ProviderAccessService } from './oidc/provider-access.service';
import { syncTokenRoutes } from './oidc/sync-token.routes';
import { TokenRefreshScheduler } from './oidc/token-refresh.scheduler';
import { sampleDataRoutes } from './sample/sample-data.routes';
import { SAMPLE_JOB, SampleDataService } from './sample/sample-data.service';
import { preferencesRoutes } from './settings/preferences.routes';
import { PreferencesService } from './settings/preferences.service';
import { createMailSourceFactory } from './sync/mail-source.factory';
import { MailSyncService } from './sync/mail-sync.service';
import { syncRoutes } from './sync/sync.routes';
import { SyncDiagnosticsService } from './sync/sync-diagnostics.service';
import { InboxFolder } from './uploads/inbox-folder';
import { uploadsRoutes } from './uploads/uploads.routes';
import { UploadsService } from './uploads/uploads.service';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';

/**
 * The composition root: opens the database (embedded or external), applies migrations, starts the queue and builds
 * the services. `start` adds the HTTP app on top, `worker` only runs `startWorkers()`.
 */
export interface Runtime {
  readonly config: Config;
  readonly database: Database;
  readonly queue: JobQueue<AppJobRegistry>;
  readonly jobs: JobsService;
  readonly accounts: AccountsService;
  readonly imapAccounts: ImapAccountsService;
  /** Mail into the invoice store (import, sync). */
  readonly ingest: IngestService;
  readonly invoices: InvoicesService;
  readonly mailSync: MailSyncService;
  /** Filing invoices in the person's drive. */
  readonly drive: DriveService;
  readonly bank: BankStatementsService;
  /** Documents a person adds (upload, `invoicebox add`, the inbox folder), through the ingest. */
  readonly uploads: UploadsService;
  readonly forwarding: ForwardingService;
  /** Route plugins of the domain modules, for buildApp. */
  readonly routes: FastifyPluginAsyncZod[];
  readonly users: UsersService;
  /** Sign-in, sessions, second factors, provider tokens and the signing keys. */
  readonly auth: AuthModule;
  /** The person behind a request's backend token (for buildApp). */
  authenticate(request: { headers: Record<string, string | string[] | undefined> }): Promise<Principal>;
  readonly health: HealthProbe;
  /** Runs job workers in this process (and the schedulers that feed them). */
  startWorkers(concurrency: number): Promise<void>;
  /** Opens the SMTP listener of the invoice addresses when configured; its port, or undefined when off. */
  startInboundSmtp(): Promise<number | undefined>;
  /** Stops the queue gracefully (running jobs get `shutdownGraceSeconds`), then the database. */
  close(): Promise<void>;
}

export async function createRuntime(
  config: Config,
  logger: Logger,
  options: {
    role?: LockRole;
    /** Where the sample data is (default: dist/sample beside the built server, written by build.mjs). */
    sampleDir?: string;
  } = {},
): Promise<Runtime> {
  // As root, the embedded server runs as `postgres`, which must enter the data dir to reach `pg/`.
  const traversable = !config.databaseUrl && process.getuid?.() === 0;
  await ensureWritableDataDir(config.dataDir, traversable ? 0o711 : 0o700);
  await tightenPermissions(config, traversable, logger);
  const database = await openDatabase(config, (message, level = 'info') => logger[level](message), options);
  try {
    await runMigrations(database.pool);
    const users = new UsersService(new UsersRepository(database.db));
    // Before the queue starts: a secret that cannot open the signing keys stops the process here.
    const auth = await createAuthModule(config, database.db, users);
    const accounts = new AccountsService(new AccountsRepository(database.db));
    // Where the servers people name (IMAP, WebDAV) may be; operator-set targets (database, Google, OIDC) are not checked.
    const outbound = { allowPrivate: config.allowPrivateNetworkTargets };
    const imapAccounts = new ImapAccountsService(database.db, auth.box, accounts, outbound);
    // A bucket that is missing or refuses the keys stops the process here, not at the first attachment.
    await verifyBlobStore(config.documentStore, config);
    const blobs = createBlobStore(config, database.db, 'documents');
    const forwardingRepository = new ForwardingRepository(database.db);
    const invoices = new InvoicesService(database.db, accounts, blobs, (ownerId, ids) =>
      forwarding.forwardedTo(ownerId, ids),
    );
    const preferences = new PreferencesService(database.db);
    // Documents are read in the document sandbox, loaded on first use: `start` does not pay for it.
    const documents = documentSettings(config.documents);
    await configureDocumentSandbox({
      ...documents.sandbox,
      log: (message, detail) => logger.warn(detail, message),
    });
    // The operator's model endpoint (EXTRACTION_MODEL_*), if any, is asked inside the sandbox where the rules are unsure.
    const model = config.extractionModel;
    const extractor = new DocumentReader(database.db, { limits: documents.limits, ...(model ? { model } : {}) });
    const ingest = new IngestService(database.db, blobs, extractor, (ownerId) => preferences.get(ownerId));
    const fieldsRefresh = new FieldsRefreshService(database.db, blobs, extractor);
    const providerAccess = new ProviderAccessService(auth.oidcClients, auth.providerTokens, accounts);
    const smtpRelays = new SmtpRelayService(database.db, auth.box, outbound);
    const forwarding = new ForwardingService(
      forwardingRepository,
      accounts,
      blobs,
      createSenderFactory({
        accounts,
        providerAccess,
        smtp: config.smtp,
        googleApiRootUrl: config.googleApiRootUrl,
        relays: smtpRelays,
        imapAccounts,
      }),
      { jobType: FORWARDING_JOB },
    );
    const oidc = new OidcSignInService(auth.oidcClients, new OidcRepository(database.db), {
      box: auth.box,
      users,
      sessions: auth.sessions,
      providerTokens: auth.providerTokens,
      accounts,
      withSignupLock: auth.withSignupLock,
      allowSignup: config.auth.allowSignup,
    });

    // Services first, then the registry of job handlers that use them, then the queue.
    const jobsRepository = new JobsRepository(database.db);
    const mailSync = new MailSyncService(
      accounts,
      createMailSourceFactory(database.db, imapAccounts, providerAccess, config.googleApiRootUrl),
      ingest,
    );
    const drive = new DriveService(
      database.db,
      accounts,
      blobs,
      auth.box,
      config.dataDir,
      createDriveFactory(providerAccess, config.googleApiRootUrl, {}, outbound),
      { sharedDatabase: Boolean(config.databaseUrl) },
    );
    const mailImport = new MailImportService(
      database.db,
      createBlobStore(config, database.db, 'uploads'),
      path.join(config.dataDir, 'tmp'),
      config.importMaxBytes,
      users,
      accounts,
      ingest,
    );
    const bank = new BankStatementsService(
      database.db,
      accounts,
      blobs,
      (bytes, filename) => readStatementInSandbox(bytes, filename, model ? { model } : {}),
      reconcileTransactions,
    );
    const sample = new SampleDataService(
      database.db,
      accounts,
      mailImport,
      bank,
      options.sampleDir ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'sample'),
      {
        // The queue is built below, with the handlers that use this service; these run only once it exists.
        importSample: (ownerId, payload) => queue.enqueue(ownerId, SAMPLE_JOB, payload),
        analyzeStatement: (ownerId, statementId) =>
          queue.enqueue(ownerId, 'bank_statement_analysis', { statement_id: statementId }),
      },
    );
    const queue: JobQueue<AppJobRegistry> = new JobQueue(
      createJobRegistry({
        providerAccess,
        mailSync,
        drive,
        mailImport,
        fieldsRefresh,
        accounts,
        bank,
        sample,
        forwarding,
      }),
      jobsRepository,
      {
        connectionString: database.url,
        leaseSeconds: config.jobLeaseSeconds,
        timeoutSeconds: config.jobTimeoutSeconds,
        log: (level, message, detail) => logger[level](detail ?? {}, message),
      },
    );
    await queue.start();
    const uploads = new UploadsService(database.db, users, accounts, ingest, jobsRepository, {
      maxBytes: config.documents.maxBytes,
      // Filed by a drive_upload job of the Uploads source; one waiting already takes the new ones too.
      fileInDrive: async (ownerId, accountId) => {
        if (!(await jobsRepository.hasPending(ownerId, 'drive_upload'))) {
          await queue.enqueue(ownerId, 'drive_upload', { account_ids: [accountId] });
        }
      },
    });
    const inbox = config.inboxDir
      ? new InboxFolder(uploads, {
          dir: config.inboxDir,
          pollMs: config.inboxPollMs,
          ownerId: async () => (await users.owner())?.id,
          log: (message, detail) => logger.info(detail ?? {}, message),
        })
      : undefined;
    forwarding.useQueue((ownerId) => queue.enqueue(ownerId, 'invoice_forwarding', {}));
    const tokenRefresh = new TokenRefreshScheduler(
      database.db,
      (ownerId) => queue.enqueue(ownerId, 'token_refresh', {}),
      5 * 60_000,
      (message, error) => logger.warn({ err: error }, message),
    );

    const inbound = new InboundAddressService(database.db, config.inboundSmtp?.domain);
    let inboundSmtp: SMTPServer | undefined;

    const connectLimit = { connectRateLimitPerMinute: config.connectRateLimitPerMinute };
    const authenticate = (request: { headers: Record<string, string | string[] | undefined> }) =>
      auth.sessions.authenticate(request.headers);
    return {
      config,
      database,
      queue,
      jobs: new JobsService(jobsRepository),
      accounts,
      imapAccounts,
      ingest,
      invoices,
      mailSync,
      drive,
      bank,
      uploads,
      forwarding,
      routes: [
        accountsRoutes(accounts, imapAccounts, connectLimit),
        invoicesRoutes(invoices),
        syncRoutes(queue, accounts, new SyncDiagnosticsService(database.db, accounts, { outbound }), connectLimit),
        driveRoutes(drive, queue, accounts, connectLimit),
        mailImportRoutes(mailImport, queue),
        uploadsRoutes(uploads, path.join(config.dataDir, 'tmp'), config.uploadMaxFiles),
        bankRoutes(bank, queue),
        sampleDataRoutes(sample),
        forwardingRoutes(forwarding, smtpRelays, connectLimit),
        preferencesRoutes(preferences),
        inboundRoutes(inbound),
        syncTokenRoutes(providerAccess),
        clientErrorsRoutes(new ClientErrorsService(database.db), { authenticate }),
        oidcRoutes(oidc, {
          publicUrl: config.publicUrl,
          rateLimitPerMinute: config.auth.rateLimitPerMinute,
          authenticate,
        }),
      ],
      users,
      auth,
      authenticate,
      health: {
        engine: database.engine,
        database: () => database.ping(),
        embedded: () => database.embeddedStatus(),
        queue: async () => {
          try {
            await database.pool.query('select 1 from pgboss.queue limit 1');
            return true;
          } catch {
            return false;
          }
        },
      },
      async startWorkers(concurrency: number) {
        // Partial files of a worker that was killed mid-write (never referenced by any row).
        await blobs
          .sweepTemp?.()
          .catch((error: unknown) => logger.warn({ err: error }, 'could not sweep temporary blob files'));
        // Uploaded mail files whose import failed for good a week ago.
        await mailImport.sweep().catch((error) => logger.warn({ err: error }, 'could not sweep old mail uploads'));
        await queue.work(concurrency);
        tokenRefresh.start();
        // The inbox folder is watched where the work is done; several processes may watch it (claims are atomic).
        await inbox?.start();
      },
      /**
       * The SMTP listener for people's invoice addresses (SMTP_INBOUND_PORT); a mail accepted there becomes a
       * mail_import job of its person, so any worker reads it. Returns the port it listens on, or undefined when off.
       */
      async startInboundSmtp(): Promise<number | undefined> {
        const settings = config.inboundSmtp;
        if (!settings) return undefined;
        const tls =
          settings.tlsKeyFile && settings.tlsCertFile
            ? { key: await fs.readFile(settings.tlsKeyFile), cert: await fs.readFile(settings.tlsCertFile) }
            : undefined;
        const server = createInboundSmtpServer({
          domain: settings.domain,
          maxBytes: settings.maxBytes,
          messagesPerMinute: settings.messagesPerMinute,
          addresses: inbound,
          tls,
          deliver: async ({ ownerId, address, raw }) => {
            const uploadId = await mailImport.receive(ownerId, Readable.from([raw]));
            await queue.enqueue(ownerId, 'mail_import', { upload_id: uploadId, account_email: address });
          },
          log: (level, message, detail) => logger[level](detail ?? {}, message),
        });
        server.on('error', (error) => logger.warn({ err: error }, 'invoice address listener error'));
        await new Promise<void>((resolve, reject) => {
          server.server.once('error', reject);
          server.listen(settings.port, settings.host, () => {
            server.server.off('error', reject);
            resolve();
          });
        });
        inboundSmtp = server;
        const address = server.server.address();
        return typeof address === 'object' && address ? address.port : settings.port;
      },
      async close() {
        if (inboundSmtp) {
          const server = inboundSmtp;
          inboundSmtp = undefined;
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
        tokenRefresh.stop();
        await inbox?.stop();
        await queue.stop(config.shutdownGraceSeconds * 1000).catch((error) => {
          logger.warn({ err: error }, 'queue did not stop cleanly');
        });
        await closeDocumentSandbox();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

export async function createAuthModule(
  config: Pick<Config, 'auth' | 'secret' | 'dataDir'> &
    Partial<Pick<Config, 'oidcProviders' | 'publicUrl' | 'databaseUrl'>>,
  db: Database['db'],
  users: UsersService,
  now?: () => Date,
): Promise<AuthModule> {
  // Several processes on one database must share one key (INVOICEBOX_SECRET): one with another stops here.
  const { box, record } = await loadCheckedSecretBox(config, db);
  const keys = new SigningKeys(new SigningKeysRepository(db), box, {
    rotationSeconds: config.auth.keyRotationSeconds,
    maxTokenSeconds: config.auth.sessionSeconds,
    now,
  });
  // Makes the first key, or proves that the secret still decrypts the current one, before anything is served.
  await keys.current();
  await record();
  const tokens = new TokenIssuer(keys, now);
  const authRepository = new AuthRepository(db);
  const providerTokens = new ProviderTokensService(new ProviderTokensRepository(db), box, now);
  const sessions = new SessionsService(authRepository, tokens, providerTokens, config.auth, now);
  const mfa = new MfaService(new MfaRepository(db), authRepository, users, sessions, tokens, box, now);
  const oidcClients = createOidcClients(config.oidcProviders ?? [], config.publicUrl ?? 'http://localhost:8080');
  const providerList = () => [...oidcClients.values()].map((c) => ({ id: c.settings.id, name: c.settings.name }));
  const local = new LocalAuthService(authRepository, users, sessions, mfa, config.auth, now, providerList);
  return {
    local,
    sessions,
    mfa,
    providerTokens,
    keys,
    rateLimitPerMinute: config.auth.rateLimitPerMinute,
    oidcClients,
    box,
    withSignupLock: (fn) => authRepository.withSignupLock((_repo, tx) => fn(users.on(tx))),
  };
}

/** One OIDC client per configured provider; redirect URIs are built from PUBLIC_URL. */
export function createOidcClients(
  providers: readonly OidcProviderConfig[],
  publicUrl: string,
): Map<string, OidcClient> {
  const clients = new Map<string, OidcClient>();
  for (const p of providers) {
    const issuerHost = new URL(p.issuer).hostname;
    clients.set(
      p.id,
      new OidcClient({
        id: p.id,
        name: p.name,
        issuer: p.issuer,
        clientId: p.clientId,
        clientSecret: p.clientSecret,
        redirectUri: `${publicUrl}/api/v1/auth/oidc/${p.id}/callback`,
        scopes: p.id === 'google' ? GOOGLE_SCOPES : ['openid', 'email', 'profile', 'offline_access'],
        ...(p.id === 'google' ? { authorizationParams: GOOGLE_AUTHORIZATION_PARAMS } : {}),
        // Plain http only for an issuer on this machine (a local test or development provider).
        allowInsecureRequests: ['127.0.0.1', 'localhost', '[::1]'].includes(issuerHost),
      }),
    );
  }
  return clients;
}

/** Documents, keys and the embedded database's files are for this process only. */
async function tightenPermissions(config: Config, traversable: boolean, logger: Logger): Promise<void> {
  const started = Date.now();
  const result = await tightenDataDir(config.dataDir, { traversable });
  const detail = { dataDir: config.dataDir, ...result, ms: Date.now() - started };
  if (result.truncated || result.failed > 0) logger.warn(detail, 'could not tighten every permission in the data dir');
  else if (result.fixed > 0) logger.info(detail, 'tightened permissions in the data dir (folders 0700, files 0600)');
}

async function ensureWritableDataDir(dir: string, mode: number): Promise<void> {
  try {
    await fs.mkdir(dir, { recursive: true, mode });
    const probe = path.join(dir, `.write-test-${process.pid}`);
    await fs.writeFile(probe, '');
    await fs.rm(probe);
  } catch (error) {
    throw new ConfigError(`INVOICEBOX_DATA_DIR (${dir}) is not writable: ${(error as Error).message}`, error);
  }
}
