import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SampleDataRemoved, SampleDataStatus } from '@invoicebox/core';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { AccountsService } from '../accounts/accounts.service';
import { mailAccounts } from '../accounts/accounts.tables';
import type { BankStatementsService } from '../bank/bank.service';
import { bankStatements } from '../bank/bank.tables';
import type { Db } from '../db/client';
import { ConflictError, ServiceUnavailableError } from '../errors';
import type { MailImportService } from '../imports/mail-import.service';
import { invoices, mailMessages } from '../invoices/invoices.tables';
import { jobs } from '../jobs/jobs.tables';
import { SAMPLE_ACCOUNT_EMAIL, SAMPLE_ACCOUNT_NAME, SAMPLE_MBOX, SAMPLE_STATEMENT } from './sample-files';

/** The job type that imports the sample (see jobs/registry.ts). */
export const SAMPLE_JOB = 'sample_data';

/** How the service starts jobs; the runtime passes the queue's enqueue (the queue is built after the services). */
export interface SampleJobs {
  importSample(ownerId: string, payload: { upload_id: string; statement_id: string }): Promise<string>;
  analyzeStatement(ownerId: string, statementId: string): Promise<string>;
}

/**
 * "Try it with sample data" (issue 16): the sample mailbox and bank statement that the build generates (dist/sample)
 * go through the product's own paths — the mbox is uploaded like Settings' Import mail and read by the mail import
 * into an mbox account, the statement is uploaded like Bank Analysis' and analysed by a bank_statement_analysis job
 * once the invoices are in — so what a newcomer sees is what their own mail would give. Everything it makes hangs off
 * the account and statement flagged `is_sample`; removing them removes it all (invoices and messages cascade from
 * the account), and nothing else of the person's.
 */
export class SampleDataService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsService,
    private readonly imports: MailImportService,
    private readonly bank: BankStatementsService,
    /** Where the build wrote the sample files; null when this server has none. */
    private readonly dir: string | null,
    private readonly jobs: SampleJobs,
  ) {}

  async status(ownerId: string): Promise<SampleDataStatus> {
    const [account] = await this.sampleAccounts(ownerId);
    const statements = await this.db
      .select({ id: bankStatements.id, status: bankStatements.status, jobStatus: jobs.status })
      .from(bankStatements)
      .leftJoin(jobs, eq(jobs.id, bankStatements.jobId))
      .where(and(eq(bankStatements.ownerId, ownerId), eq(bankStatements.isSample, true)));
    const [job] = account
      ? await this.db
          .select({ id: jobs.id, status: jobs.status })
          .from(jobs)
          .where(and(eq(jobs.ownerId, ownerId), eq(jobs.type, SAMPLE_JOB)))
          .orderBy(desc(jobs.createdAt))
          .limit(1)
      : [];
    const unfinished = (status: string | null | undefined) => status === 'pending' || status === 'running';
    return {
      available: (await this.files()) !== null,
      loaded: account !== undefined,
      account_id: account?.id ?? null,
      account_email: SAMPLE_ACCOUNT_EMAIL,
      statement_ids: statements.map((s) => s.id),
      invoices: account ? await this.invoiceCount(ownerId, [account.id]) : 0,
      job_id: job?.id ?? null,
      // The sample job starts the statement's analysis before it ends: then that one is followed.
      importing: unfinished(job?.status) || statements.some((st) => unfinished(st.jobStatus)),
    };
  }

  /**
   * Connects the sample mailbox, uploads its mbox and statement and starts the import. Once per person: a second call
   * while it is loaded is refused (the flag is claimed atomically, so two clicks at once import it once).
   */
  async start(ownerId: string): Promise<SampleDataStatus> {
    const files = await this.files();
    if (!files) {
      throw new ServiceUnavailableError(
        'Sample data is not available on this server: it is generated when the server is built (npm run build)',
      );
    }
    const account = await this.accounts.connect(ownerId, {
      provider: 'mbox',
      email: SAMPLE_ACCOUNT_EMAIL,
      displayName: SAMPLE_ACCOUNT_NAME,
    });
    const claimed = await this.db
      .update(mailAccounts)
      .set({ isSample: true })
      .where(
        and(eq(mailAccounts.id, account.userId), eq(mailAccounts.ownerId, ownerId), eq(mailAccounts.isSample, false)),
      )
      .returning({ id: mailAccounts.id });
    if (claimed.length === 0) throw new ConflictError('The sample data is already loaded');
    try {
      // The person asked to see the sample: show its mailbox (it already is when it is their first).
      await this.accounts.activate(ownerId, account.userId);
      const uploadId = await this.imports.receive(ownerId, createReadStream(files.mbox));
      const statementId = await this.bank.receive(ownerId, {
        filename: SAMPLE_STATEMENT,
        file_data: (await fs.readFile(files.statement)).toString('base64'),
      });
      await this.db
        .update(bankStatements)
        .set({ isSample: true })
        .where(and(eq(bankStatements.id, statementId), eq(bankStatements.ownerId, ownerId)));
      await this.jobs.importSample(ownerId, { upload_id: uploadId, statement_id: statementId });
    } catch (error) {
      await this.removeAll(ownerId).catch(() => undefined);
      throw error;
    }
    return this.status(ownerId);
  }

  /** The second half of the sample job: the statement is analysed once the invoices are in. */
  async analyzeStatement(ownerId: string, statementId: string): Promise<string | null> {
    const [statement] = await this.db
      .select({ id: bankStatements.id })
      .from(bankStatements)
      .where(
        and(eq(bankStatements.id, statementId), eq(bankStatements.ownerId, ownerId), eq(bankStatements.isSample, true)),
      );
    if (!statement) return null;
    const jobId = await this.jobs.analyzeStatement(ownerId, statementId);
    await this.bank.attachJob(ownerId, statementId, jobId);
    return jobId;
  }

  /** Whether the sample mailbox is still there (a removal before the job ran leaves nothing to import). */
  async isLoaded(ownerId: string): Promise<boolean> {
    return (await this.sampleAccounts(ownerId)).length > 0;
  }

  /** Removes the sample mailbox with its messages and invoices, and the sample statements; nothing else. */
  async remove(ownerId: string): Promise<SampleDataRemoved> {
    const [running] = await this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.ownerId, ownerId), eq(jobs.type, SAMPLE_JOB), inArray(jobs.status, ['pending', 'running'])))
      .limit(1);
    if (running) throw new ConflictError('The sample data is still being imported; remove it once the import is done');
    return this.removeAll(ownerId);
  }

  private async removeAll(ownerId: string): Promise<SampleDataRemoved> {
    const samples = await this.sampleAccounts(ownerId);
    const invoicesRemoved = await this.invoiceCount(
      ownerId,
      samples.map((a) => a.id),
    );
    for (const sample of samples) {
      // The primary cannot be removed while other accounts exist: hand the role to the person's own first account.
      if (sample.isPrimary) {
        const others = (await this.accounts.list(ownerId)).accounts.filter((a) => a.userId !== sample.id);
        const next = others.find((a) => a.email !== SAMPLE_ACCOUNT_EMAIL) ?? others[0];
        if (next) await this.accounts.setPrimary(ownerId, next.userId);
      }
      await this.accounts.remove(ownerId, sample.id);
    }
    const statements = await this.db
      .delete(bankStatements)
      .where(and(eq(bankStatements.ownerId, ownerId), eq(bankStatements.isSample, true)))
      .returning({ id: bankStatements.id });
    return { accounts: samples.length, invoices: invoicesRemoved, statements: statements.length };
  }

  private sampleAccounts(ownerId: string) {
    return this.db
      .select({ id: mailAccounts.id, isPrimary: mailAccounts.isPrimary })
      .from(mailAccounts)
      .where(and(eq(mailAccounts.ownerId, ownerId), eq(mailAccounts.isSample, true)));
  }

  private async invoiceCount(ownerId: string, accountIds: string[]): Promise<number> {
    if (accountIds.length === 0) return 0;
    const [row] = await this.db
      .select({ n: count() })
      .from(invoices)
      .innerJoin(mailMessages, eq(mailMessages.id, invoices.messageRowId))
      .where(and(eq(invoices.ownerId, ownerId), inArray(mailMessages.accountId, accountIds)));
    return row?.n ?? 0;
  }

  private async files(): Promise<{ mbox: string; statement: string } | null> {
    if (!this.dir) return null;
    const mbox = path.join(this.dir, SAMPLE_MBOX);
    const statement = path.join(this.dir, SAMPLE_STATEMENT);
    const present = await Promise.all(
      [mbox, statement].map((f) =>
        fs.access(f).then(
          () => true,
          () => false,
        ),
      ),
    );
    return present.every(Boolean) ? { mbox, statement } : null;
  }
}
