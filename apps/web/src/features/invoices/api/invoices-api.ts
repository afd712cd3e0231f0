import { InvoiceListResponseSchema, InvoiceStatsSchema, JobStartedResponseSchema } from '@invoicebox/core';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface InvoiceFilters {
  vendor?: string;
  month?: string;
  search?: string;
  status?: 'ready_to_process' | 'missing' | 'needs_action';
  category?: string;
  hasAttachments: boolean;
  page: number;
  limit: number;
}

/** Query keys of the invoice screens; account switches invalidate everything under ['invoices']. */
export const invoicesQueryOptions = (filters: InvoiceFilters) =>
  queryOptions({
    queryKey: ['invoices', 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get('/invoices', {
        schema: InvoiceListResponseSchema,
        signal,
        query: {
          vendor: filters.vendor,
          month: filters.month,
          search: filters.search,
          status: filters.status,
          category: filters.category,
          has_attachments: filters.hasAttachments ? 'true' : 'false',
          page: filters.page,
          limit: filters.limit,
        },
      }),
    placeholderData: keepPreviousData,
  });

export const useInvoices = (filters: InvoiceFilters) => useQuery(invoicesQueryOptions(filters));

export const useInvoiceStats = () =>
  useQuery({
    queryKey: ['invoices', 'stats'] as const,
    queryFn: ({ signal }) => api.get('/invoices/stats', { schema: InvoiceStatsSchema, signal }),
  });

export const startMailSync = () => api.post('/sync/gmail', { schema: JobStartedResponseSchema });
export const startFullSync = () => api.post('/sync/full', { schema: JobStartedResponseSchema });
