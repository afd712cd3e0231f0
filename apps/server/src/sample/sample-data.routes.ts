import { SampleDataRemovedSchema, SampleDataStatusSchema } from '@invoicebox/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SampleDataService } from './sample-data.service';

/** "Try it with sample data": its state, one call to load it and one to remove it (owner-scoped). */
export function sampleDataRoutes(sample: SampleDataService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sample-data',
      {
        schema: {
          tags: ['sample'],
          summary: 'Whether this server has sample data and whether it is loaded for you',
          response: { 200: SampleDataStatusSchema },
        },
      },
      async (request) => sample.status(request.user.id),
    );

    app.post(
      '/sample-data',
      {
        schema: {
          tags: ['sample'],
          summary:
            'Loads the sample mailbox and bank statement: imported like an uploaded mbox into a mailbox marked ' +
            'sample, then the statement analysed (a sample_data job, then a bank_statement_analysis job); 409 when ' +
            'already loaded',
          response: { 200: SampleDataStatusSchema },
        },
      },
      async (request) => sample.start(request.user.id),
    );

    app.delete(
      '/sample-data',
      {
        schema: {
          tags: ['sample'],
          summary: 'Removes the sample mailbox with its messages and invoices, and the sample statements',
          response: { 200: SampleDataRemovedSchema },
        },
      },
      async (request) => sample.remove(request.user.id),
    );
  };
}
