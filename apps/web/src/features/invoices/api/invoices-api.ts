import {
  DriveLinkResponseSchema,
  InvoiceListResponseSchema,
  InvoiceStatsSchema,
  JobStartedResponseSchema,
} from '@invoicebox/core';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiDownload } from '../../../lib/api-client';

export interface InvoiceFilters {
  vendor?: string;
  month?: string;
  search?: string;
  status?: 'ready_to_process' | 'missing' | 'needs_action';
  category?: string;
  /** Invoices, credit notes and receipts, or the other documents (order confirmations, delivery notes...). */
  documentType?: 'financial' | 'other';
  hasAttachments: boolean;
  page: number;
  limit: number;
}

/** The filters as GET /invoices and /invoices/export take them (no paging). */
const filterQuery = (filters: InvoiceFilters) => ({
  vendor: filters.vendor,
  month: filters.month,
  search: filters.search,
  status: filters.status,
  category: filters.category,
  document_type: filters.documentType,
  has_attachments: filters.hasAttachments ? 'true' : 'false',
});

/** Query keys of the invoice screens; account switches invalidate everything under ['invoices']. */
export const invoicesQueryOptions = (filters: InvoiceFilters) =>
  queryOptions({
    queryKey: ['invoices', 'list', filters] as const,
    queryFn: ({ signal }) =>
      api.get('/invoices', {
        schema: InvoiceListResponseSchema,
        signal,
        query: { ...filterQuery(filters), page: filters.page, limit: filters.limit },
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
export const startDriveUpload = () => api.post('/sync/drive/upload', { schema: JobStartedResponseSchema });
export const getDriveLink = (invoiceId: string) =>
  api.post(`/invoices/${invoiceId}/drive-link`, { schema: DriveLinkResponseSchema });

/** The export of the current filters (no paging): CSV or JSON of the list, or a ZIP of the documents by date. */
export const exportInvoices = (filters: InvoiceFilters, format: 'csv' | 'json' | 'zip') =>
  apiDownload('/invoices/export', {
    fallbackName: `invoices.${format}`,
    query: { format, ...filterQuery(filters) },
  });
