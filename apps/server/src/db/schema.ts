/**
 * The one schema of Invoicebox, for the embedded and the external PostgreSQL alike: it only gathers the tables that
 * each domain module declares in its own `*.tables.ts`. Migrations under ../drizzle are generated from it with
 * `npm run db:generate -w @invoicebox/server`; keep to features of PostgreSQL 15.
 */

export * from '../accounts/accounts.tables';
export * from '../auth/auth.tables';
export * from '../bank/bank.tables';
export * from '../client-errors/client-errors.tables';
export * from '../drive/drive.tables';
export * from '../forwarding/forwarding.tables';
export * from '../inbound/inbound.tables';
export * from '../invoices/blob.tables';
export * from '../invoices/invoices.tables';
export * from '../jobs/jobs.tables';
export * from '../oidc/oidc.tables';
export * from '../settings/settings.tables';
export * from '../users/users.tables';
