import { z } from 'zod';
import type { AccountsService } from '../accounts/accounts.service';
import type { BankStatementsService } from '../bank/bank.service';
import type { DriveService, DriveUploadSummary } from '../drive/drive.service';
import { AppError } from '../errors';
import type { ForwardingService } from '../forwarding/forwarding.service';
import type { MailImportService } from '../imports/mail-import.service';
import type { FieldsRefreshService } from '../invoices/fields-refresh.service';
import type { ProviderAccessService } from '../oidc/provider-access.service';
import type { SampleDataService } from '../sample/sample-data.service';
import { SAMPLE_ACCOUNT_EMAIL } from '../sample/sample-files';
import type { MailSyncService } from '../sync/mail-sync.service';
import { defineJob, type JobRegistry } from './job-registry';

/**
 * Every job type of the product: name → payload schema → handler. Domain modules add their jobs here
 * (gmail_sync, drive_upload, full_sync, ...). Enqueueing an unknown name or a bad payload is refused.
 */
export const noopJob = defineJob({
  // A diagnostic job: it only reports progress. Used by the benchmarks and to check that workers run.
  payload: z.object({
    steps: z.number().int().min(0).max(1000).default(0),
    step_ms: z.number().int().min(0).max(60_000).default(0),
  }),
  async handler({ payload, progress, signal }) {
    for (let step = 1; step <= payload.steps; step++) {
      signal.throwIfAborted();
      if (payload.step_ms > 0) await new Promise((r) => setTimeout(r, payload.step_ms));
      await progress((step / payload.steps) * 100, `Step ${step} of ${payload.steps}`);
    }
    return 'Done';
  },
});

/** What the product's job handlers need; built by the runtime before the queue. */
export interface JobDependencies {
  providerAccess: ProviderAccessService;
  mailSync: MailSyncService;
  drive: DriveService;
  mailImport: MailImportService;
  fieldsRefresh: FieldsRefreshService;
  accounts: AccountsService;
  bank: BankStatementsService;
  /** "Try it with sample data"; absent where the runtime has none (its job then fails plainly). */
  sample?: SampleDataService;
  forwarding: ForwardingService;
}

/** Deliveries after the first for a statement analysis that hits a passing problem (a database blink). */
const BANK_ANALYSIS_RETRIES = 2;

const syncPayload = z.object({
  account_ids: z.array(z.string().uuid()).max(100).optional(),
  initial_setup: z.boolean().optional(),
});

const driveUploadPayload = z.object({
  account_ids: z.array(z.string().uuid()).max(100).optional(),
  target_account_id: z.string().uuid().optional(),
});

function driveSummary(s: DriveUploadSummary): string {
  if (s.invoices === 0) return `Every invoice is already in ${s.drive}`;
  const parts = [`${s.uploaded} file(s) uploaded`, `${s.linked} already there`];
  if (s.failed > 0) parts.push(`${s.failed} invoice(s) failed`);
  return `${parts.join(', ')} (${s.drive})`;
}

/** After a sync or an import: new invoices go to the forwarding outbox; a failure there never fails the sync. */
async function forwardAfterSync(deps: JobDependencies, ownerId: string): Promise<string> {
  try {
    const { queued } = await deps.forwarding.afterSync(ownerId);
    return queued > 0 ? ` Forwarding: ${queued} mail(s) queued.` : '';
  } catch (error) {
    return ` Forwarding: could not queue new invoices (${error instanceof Error ? error.message : String(error)}).`;
  }
}

function summary(results: Array<{ ok: boolean; email: string; message: string }>): string {
  if (results.length === 0) return 'No mail account is connected yet';
  return results.map((r) => `${r.email}: ${r.ok ? '' : 'failed: '}${r.message}`).join('; ');
}

export function createJobRegistry(deps: JobDependencies) {
  return {
    noop: noopJob,
    gmail_sync: defineJob({
      // The spec's name: the mail sync of every source of the accounts in scope (IMAP, Gmail API).
      payload: syncPayload,
      async handler({ ownerId, payload, progress, signal }) {
        const results = await deps.mailSync.sync(ownerId, payload.account_ids, { signal, progress });
        if (results.length > 0 && results.every((r) => !r.ok)) {
          throw new AppError(summary(results), { code: 'sync_failed', status: 502 });
        }
        return summary(results) + (await forwardAfterSync(deps, ownerId));
      },
    }),
    drive_upload: defineJob({
      // Files the invoices of the accounts in scope in the person's drive; a rerun links what is already there.
      payload: driveUploadPayload,
      async handler({ ownerId, payload, progress, signal }) {
        const result = await deps.drive.upload(ownerId, {
          accountIds: payload.account_ids,
          targetAccountId: payload.target_account_id,
          signal,
          progress,
        });
        return driveSummary(result);
      },
    }),
    full_sync: defineJob({
      // Mail sync (fields are extracted as messages are stored), then the drive upload of the same accounts.
      payload: syncPayload,
      async handler({ ownerId, payload, progress, signal }) {
        await progress(5, payload.initial_setup ? 'First sync of your mailboxes' : 'Syncing mail');
        const results = await deps.mailSync.sync(ownerId, payload.account_ids, {
          signal,
          progress: (percent, message) => progress(5 + percent * 0.5, message),
        });
        // Invoices read by older extraction rules are read again: a better extractor reaches what was found before.
        await progress(55, 'Reading invoice fields');
        const accountIds = await deps.accounts.resolveAccountIds(ownerId, payload.account_ids);
        const fields = await deps.fieldsRefresh.refresh(ownerId, accountIds, {
          signal,
          progress: (percent, message) => progress(55 + percent * 0.15, message),
        });
        // Mail failures are per account and reported; what other accounts (or earlier runs) found is still filed.
        await progress(70, 'Filing invoices in your drive');
        let drive: string;
        try {
          const uploaded = await deps.drive.upload(ownerId, {
            accountIds: payload.account_ids,
            signal,
            progress: (percent, message) => progress(70 + percent * 0.29, message),
          });
          drive = driveSummary(uploaded);
        } catch (error) {
          signal.throwIfAborted();
          // The mail is in; a drive that is down fails only this step, and the next run files what is left.
          drive = `failed: ${error instanceof Error ? error.message : String(error)}`;
        }
        const reread = fields.read > 0 ? ` Fields read again: ${fields.read} (${fields.changed} changed).` : '';
        return `${summary(results)}.${reread} Drive: ${drive}.${await forwardAfterSync(deps, ownerId)}`;
      },
    }),
    mail_import: defineJob({
      // An uploaded mbox or .eml file into the invoice store; rerunning it adds nothing twice.
      payload: z.object({ upload_id: z.string().uuid(), account_email: z.string().email().max(320).optional() }),
      async handler({ ownerId, payload, progress, signal }) {
        await progress(5, 'Reading the uploaded mail');
        const r = await deps.mailImport.run(ownerId, payload.upload_id, payload.account_email, { signal, progress });
        return (
          `Imported ${r.added} new message(s) of ${r.read} into ${r.account}: ${r.invoices} new invoice(s)` +
          (r.unreadable ? `, ${r.unreadable} unreadable` : '') +
          (await forwardAfterSync(deps, ownerId))
        );
      },
    }),
    bank_statement_analysis: defineJob({
      // Reads an uploaded statement in the document sandbox and reconciles it; a rerun replaces what it stored.
      payload: z.object({ statement_id: z.string().uuid() }),
      async handler({ ownerId, payload, progress, signal, attempt }) {
        try {
          return await deps.bank.analyze(ownerId, payload.statement_id, { signal, progress });
        } catch (error) {
          // The statement shows failed once no further attempt will come (a retryable error gets its retries).
          const retryable = error instanceof AppError ? error.retryable : true;
          if (!signal.aborted && (!retryable || attempt > BANK_ANALYSIS_RETRIES)) {
            const message = error instanceof Error ? error.message : String(error);
            if (!(error instanceof AppError && error.code === 'statement_unreadable')) {
              await deps.bank.fail(ownerId, payload.statement_id, message).catch(() => undefined);
            }
          }
          throw error;
        }
      },
      retryLimit: BANK_ANALYSIS_RETRIES,
    }),
    sample_data: defineJob({
      // The sample mailbox through the mail import, then its statement through a bank_statement_analysis job (once
      // the invoices it pays are in). Both steps are the product's own and safe to run twice.
      payload: z.object({ upload_id: z.string().uuid(), statement_id: z.string().uuid() }),
      async handler({ ownerId, payload, progress, signal }) {
        const sample = deps.sample;
        if (!sample)
          throw new AppError('Sample data is not set up in this process', { code: 'sample_unavailable', status: 503 });
        if (!(await sample.isLoaded(ownerId))) return 'The sample data was removed before it was imported';
        await progress(5, 'Importing the sample mailbox');
        const r = await deps.mailImport.run(ownerId, payload.upload_id, SAMPLE_ACCOUNT_EMAIL, { signal, progress });
        await progress(90, 'Analysing the sample bank statement');
        const analysis = await sample.analyzeStatement(ownerId, payload.statement_id);
        return (
          `Sample data: ${r.read} message(s) imported, ${r.invoices} invoice(s) found` +
          (analysis ? '; the sample bank statement is being analysed' : '')
        );
      },
    }),
    invoice_forwarding: defineJob({
      // Sends the person's pending forwards (outbox rows); every row is sent once, also across crashes and reruns.
      payload: z.object({}),
      async handler({ ownerId, jobId, progress, signal }) {
        await progress(1, 'Forwarding invoices');
        const r = await deps.forwarding.run(ownerId, jobId, { signal, progress });
        const parts = [`${r.sent} invoice mail(s) forwarded`];
        if (r.recovered > 0) parts.push(`${r.recovered} found already delivered`);
        if (r.failed > 0) parts.push(`${r.failed} failed`);
        if (r.waiting > 0) parts.push(`${r.waiting} waiting for a retry`);
        return parts.join(', ');
      },
      // Safe to run again at any point; a worker killed mid-batch costs a delivery.
      retryLimit: 10,
    }),
    token_refresh: defineJob({
      // Refreshes the person's provider access before it expires; a refused grant marks that account only.
      payload: z.object({}),
      async handler({ ownerId, progress }) {
        await progress(10, 'Refreshing provider access');
        const result = await deps.providerAccess.refreshAll(ownerId);
        return result.failed > 0
          ? `Refreshed ${result.refreshed} account(s); ${result.failed} need a new sign-in`
          : `Refreshed ${result.refreshed} account(s)`;
      },
    }),
  } satisfies JobRegistry;
}

export type AppJobRegistry = ReturnType<typeof createJobRegistry>;
