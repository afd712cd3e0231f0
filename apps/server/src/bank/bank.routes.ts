import {
  BankManualMatchSchema,
  BankStatementAnalysisSchema,
  BankStatementListQuerySchema,
  BankStatementListResponseSchema,
  BankStatementSummarySchema,
  BankStatementUploadResponseSchema,
  BankStatementUploadSchema,
  BankTransactionParamsSchema,
  BankTransactionSchema,
  ClearBankStatementsResponseSchema,
} from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { JobQueue } from '../jobs/job-queue';
import type { AppJobRegistry } from '../jobs/registry';
import type { BankStatementsService } from './bank.service';

const IdParams = z.object({ id: z.string().uuid() });

/** The seven bank-statement calls of spec §7, and the manual match and unmatch of the analysis table. */
export function bankRoutes(bank: BankStatementsService, queue: JobQueue<AppJobRegistry>): FastifyPluginAsyncZod {
  return async (app) => {
    const start = async (ownerId: string, statementId: string) => {
      const jobId = await queue.enqueue(ownerId, 'bank_statement_analysis', { statement_id: statementId });
      await bank.attachJob(ownerId, statementId, jobId);
      return { bank_statement_id: statementId, job_id: jobId };
    };

    app.get(
      '/bank-statements',
      {
        schema: {
          tags: ['bank'],
          summary: 'Your bank statements, newest first (limit default 20, offset default 0)',
          querystring: BankStatementListQuerySchema,
          response: { 200: BankStatementListResponseSchema },
        },
      },
      async (request) => bank.list(request.user.id, request.query.limit, request.query.offset),
    );

    app.get(
      '/bank-statements/summary',
      {
        schema: {
          tags: ['bank'],
          summary: 'Counts of your statements by status and of their transactions, matched or not',
          response: { 200: BankStatementSummarySchema },
        },
      },
      async (request) => bank.summary(request.user.id),
    );

    app.get(
      '/bank-statements/:id',
      {
        schema: {
          tags: ['bank'],
          summary: 'One statement with its analysis: reconciliation_result and transactions in the file’s order',
          params: IdParams,
          response: { 200: BankStatementAnalysisSchema },
        },
      },
      async (request) => bank.get(request.user.id, request.params.id),
    );

    app.post(
      '/bank-statements/upload',
      {
        schema: {
          tags: ['bank'],
          summary:
            'Uploads a statement (filename, file_data in base64: a PDF, or a CSV, OFX, camt.053 or MT940 export) ' +
            'and starts its analysis; it is reconciled with all your invoices',
          body: BankStatementUploadSchema.omit({ user_ids: true }),
          response: { 200: BankStatementUploadResponseSchema },
        },
      },
      async (request) => start(request.user.id, await bank.receive(request.user.id, request.body)),
    );

    app.post(
      '/bank-statements/upload-multi',
      {
        schema: {
          tags: ['bank'],
          summary: 'As upload, reconciled with the invoices of the given user_ids that are your accounts',
          body: BankStatementUploadSchema.required({ user_ids: true }),
          response: { 200: BankStatementUploadResponseSchema },
        },
      },
      async (request) => start(request.user.id, await bank.receive(request.user.id, request.body)),
    );

    app.post(
      '/bank-statements/:id/retry',
      {
        schema: {
          tags: ['bank'],
          summary: 'Analyses the statement again (your manual matches are kept)',
          params: IdParams,
          response: { 200: BankStatementUploadResponseSchema },
        },
      },
      async (request) => {
        await bank.prepareRetry(request.user.id, request.params.id);
        return start(request.user.id, request.params.id);
      },
    );

    app.delete(
      '/bank-statements/clear-all',
      {
        schema: {
          tags: ['bank'],
          summary: 'Deletes all your bank statements with their transactions and matches',
          response: { 200: ClearBankStatementsResponseSchema },
        },
      },
      async (request) => ({ deleted: await bank.clearAll(request.user.id) }),
    );

    app.post(
      '/bank-statements/:id/transactions/:transactionId/match',
      {
        schema: {
          tags: ['bank'],
          summary: 'Matches a debit with one of your invoices by hand; kept through re-analysis',
          params: BankTransactionParamsSchema,
          body: BankManualMatchSchema,
          response: { 200: BankTransactionSchema },
        },
      },
      async (request) =>
        bank.matchManually(request.user.id, request.params.id, request.params.transactionId, request.body.invoice_id),
    );

    app.delete(
      '/bank-statements/:id/transactions/:transactionId/match',
      {
        schema: {
          tags: ['bank'],
          summary: 'Marks a transaction as paying none of your invoices; kept through re-analysis',
          params: BankTransactionParamsSchema,
          response: { 200: BankTransactionSchema },
        },
      },
      async (request) => bank.unmatchManually(request.user.id, request.params.id, request.params.transactionId),
    );
  };
}
