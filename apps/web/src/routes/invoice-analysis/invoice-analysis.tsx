import { INVOICE_CATEGORIES, lastTwelveMonths } from '@invoicebox/core';
import { useQueryClient } from '@tanstack/react-query';
import { CloudUpload, Download, FileText, type LucideIcon, Mail, RefreshCw } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '../../components/page-header';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { useAccounts } from '../../features/accounts/api/accounts-api';
import {
  exportInvoices,
  type InvoiceFilters,
  startDriveUpload,
  startFullSync,
  startMailSync,
  useInvoices,
} from '../../features/invoices/api/invoices-api';
import { InvoiceCard } from '../../features/invoices/components/invoice-card';
import { getActiveJobId, setActiveJobId, subscribeActiveJobId } from '../../features/jobs/active-job-store';
import { SampleDataBanner, TrySampleDataButton } from '../../features/sample/components/sample-data';
import { UploadDropZone } from '../../features/uploads/upload-drop-zone';

const select = 'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:outline-2 focus:outline-indigo-500';
const EMPTY: InvoiceFilters = { hasAttachments: true, page: 1, limit: 50 };

/** Spec §2 Invoice Analysis: the three sync starters and the results with their filters. */
export function InvoiceAnalysisRoute() {
  const client = useQueryClient();
  const activeJob = useSyncExternalStore(subscribeActiveJobId, getActiveJobId, () => null);
  // When the active job ends (the store clears it), what it found is shown.
  const previousJob = useRef(activeJob);
  useEffect(() => {
    if (previousJob.current && !activeJob) void client.invalidateQueries({ queryKey: ['invoices'] });
    previousJob.current = activeJob;
  }, [activeJob, client]);
  const accounts = useAccounts();
  const [filters, setFilters] = useState<InvoiceFilters>(EMPTY);
  const [searchText, setSearchText] = useState('');
  const [exporting, setExporting] = useState<'csv' | 'json' | 'zip' | null>(null);
  const invoices = useInvoices(filters);
  const ids = {
    search: useId(),
    vendor: useId(),
    month: useId(),
    status: useId(),
    category: useId(),
    documents: useId(),
  };
  const months = useMemo(() => lastTwelveMonths(new Date()), []);
  const vendors = useMemo(
    () =>
      [...new Set((invoices.data?.invoices ?? []).map((i) => i.vendor).filter((v): v is string => Boolean(v)))].sort(
        (a, b) => a.localeCompare(b),
      ),
    [invoices.data],
  );
  const filtering =
    Boolean(
      filters.vendor || filters.month || filters.search || filters.status || filters.category || filters.documentType,
    ) || !filters.hasAttachments;
  const set = (patch: Partial<InvoiceFilters>) => setFilters((f) => ({ ...f, ...patch, page: 1 }));

  const start = async (run: () => Promise<{ job_id: string }>, failure: string) => {
    try {
      const { job_id } = await run();
      setActiveJobId(job_id);
      await client.invalidateQueries({ queryKey: ['jobs'] });
    } catch {
      toast.error(failure);
    }
  };
  const actions: ReadonlyArray<{
    title: string;
    description: string;
    button: string;
    icon: LucideIcon;
    onClick?: () => void;
  }> = [
    {
      title: 'Gmail Sync',
      description: 'Scan your mailboxes for new invoice emails.',
      button: 'Sync Gmail',
      icon: Mail,
      onClick: () => void start(startMailSync, 'Failed to start Gmail sync'),
    },
    {
      title: 'Drive Upload',
      description: 'File the invoices found so far in your drive, in folders by date, without duplicates.',
      button: 'Upload to Drive',
      icon: CloudUpload,
      onClick: () => void start(startDriveUpload, 'Failed to start Drive upload'),
    },
    {
      title: 'Full Sync',
      description: 'Mail sync, then processing, then drive upload, in one go.',
      button: 'Run Full Sync',
      icon: RefreshCw,
      onClick: () => void start(startFullSync, 'Failed to start full sync'),
    },
  ];

  const data = invoices.data;
  return (
    <>
      <PageHeader title="Invoice Analysis" description="Sync your mail and browse the invoices found." />
      <SampleDataBanner />
      <div className="grid gap-4 md:grid-cols-3">
        {actions.map(({ title, description, button, icon: Icon, onClick }) => (
          <Card key={title}>
            <CardHeader>
              <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-indigo-100 text-indigo-600">
                <Icon className="h-5 w-5" aria-hidden="true" />
              </span>
              <CardTitle className="mt-2">{title}</CardTitle>
              <CardDescription>{description}</CardDescription>
            </CardHeader>
            <CardContent>
              <Button variant="outline" className="w-full" disabled={!onClick || activeJob !== null} onClick={onClick}>
                {button}
              </Button>
            </CardContent>
          </Card>
        ))}
      </div>

      <UploadDropZone />

      <Card className="mt-6">
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle>Invoices</CardTitle>
          <div className="flex flex-wrap gap-2">
            {(['csv', 'json', 'zip'] as const).map((format) => (
              <Button
                key={format}
                size="sm"
                variant="outline"
                disabled={exporting !== null}
                title={format === 'zip' ? 'The documents in folders by date, with the CSV' : undefined}
                onClick={() => {
                  setExporting(format);
                  exportInvoices(filters, format)
                    .catch(() => toast.error('Export failed'))
                    .finally(() => setExporting(null));
                }}
              >
                <Download className="h-4 w-4" aria-hidden="true" />
                {exporting === format ? 'Exporting…' : `Export ${format.toUpperCase()}`}
              </Button>
            ))}
          </div>
        </CardHeader>
        <CardContent className="space-y-4">
          {accounts.data?.session.selectedScope === 'all' ? (
            <p role="status" className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-800">
              Showing invoices from all your connected accounts.
            </p>
          ) : null}
          {data && data.total_emails > 0 ? (
            <p role="status" className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
              Showing {data.total} likely invoices out of {data.total_emails} total emails. Non-invoice emails
              (newsletters, confirmations, etc.) have been filtered out.
            </p>
          ) : null}
          <div className="grid gap-3 md:grid-cols-3 lg:grid-cols-7">
            <div className="md:col-span-3 lg:col-span-2">
              <label htmlFor={ids.search} className="text-sm font-medium text-slate-700">
                Search
              </label>
              <input
                id={ids.search}
                type="search"
                className={`${select} mt-1 w-full`}
                placeholder="Vendor, sender, subject, number, file… (Enter)"
                value={searchText}
                onChange={(e) => setSearchText(e.target.value)}
                onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
                  if (e.key === 'Enter') set({ search: searchText.trim() || undefined });
                }}
              />
            </div>
            <Filter id={ids.vendor} label="Vendor" value={filters.vendor} onChange={(vendor) => set({ vendor })}>
              {vendors.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </Filter>
            <Filter id={ids.month} label="Month" value={filters.month} onChange={(month) => set({ month })}>
              {months.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </Filter>
            <Filter
              id={ids.status}
              label="Status"
              value={filters.status}
              onChange={(status) => set({ status: status as InvoiceFilters['status'] })}
            >
              <option value="ready_to_process">Ready to Process</option>
              <option value="needs_action">Needs Action</option>
              <option value="missing">Missing</option>
            </Filter>
            <Filter
              id={ids.category}
              label="Invoice Type"
              value={filters.category}
              onChange={(category) => set({ category })}
            >
              {INVOICE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Filter>
            {/* What the documents are, read from their content: the §5 rules list them all; only invoices, credit
                notes and receipts are summed, filed and reconciled. */}
            <Filter
              id={ids.documents}
              label="Documents"
              value={filters.documentType}
              onChange={(documentType) => set({ documentType: documentType as InvoiceFilters['documentType'] })}
            >
              <option value="financial">Invoices &amp; receipts</option>
              <option value="other">Other documents</option>
            </Filter>
          </div>
          <div className="flex flex-wrap items-center gap-4">
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={filters.hasAttachments}
                onChange={(e) => set({ hasAttachments: e.target.checked })}
              />
              Has Attachments
            </label>
            {filtering ? (
              <>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    setSearchText('');
                    setFilters(EMPTY);
                  }}
                >
                  Clear Filters
                </Button>
                <span className="text-sm text-slate-600">{data?.total ?? 0} invoices found</span>
              </>
            ) : null}
          </div>
          {invoices.isPending ? (
            <Spinner label="Loading invoices…" />
          ) : invoices.error ? (
            <p role="alert" className="text-sm text-red-700">
              {invoices.error.message}
            </p>
          ) : data && data.invoices.length > 0 ? (
            <>
              <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
                {data.invoices.map((invoice) => (
                  <InvoiceCard key={invoice.id} invoice={invoice} />
                ))}
              </div>
              {data.total > filters.limit ? (
                <div className="flex items-center justify-center gap-3">
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={filters.page <= 1}
                    onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}
                  >
                    Previous
                  </Button>
                  <span className="text-sm text-slate-600">
                    Page {filters.page} of {Math.ceil(data.total / filters.limit)}
                  </span>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={filters.page * filters.limit >= data.total}
                    onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}
                  >
                    Next
                  </Button>
                </div>
              ) : null}
            </>
          ) : (
            <EmptyState
              icon={FileText}
              title={filtering ? 'No invoices match your filters' : 'No invoices found'}
              action={filtering ? undefined : <TrySampleDataButton />}
            />
          )}
        </CardContent>
      </Card>
    </>
  );
}

function Filter({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  children: React.ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        className={`${select} mt-1 w-full`}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">All</option>
        {children}
      </select>
    </div>
  );
}
