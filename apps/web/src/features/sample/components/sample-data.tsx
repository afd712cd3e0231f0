import { SAMPLE_BADGE_LABEL, type SampleDataStatus } from '@invoicebox/core';
import { useQueryClient } from '@tanstack/react-query';
import { FlaskConical, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { setActiveJobId } from '../../jobs/active-job-store';
import { CHANGED_BY_SAMPLE, loadSampleData, removeSampleData, useSampleData } from '../api/sample-api';

const WHAT_IT_IS =
  'A sample mailbox (invoices in several languages and formats, an e-invoice, a scanned invoice, newsletters and ' +
  'order confirmations) and a bank statement that pays some of them, read like your own mail would be.';

export function SampleBadge() {
  return <Badge variant="warning">{SAMPLE_BADGE_LABEL}</Badge>;
}

/** Loading and removing the sample, with its toasts; every screen that shows the sample uses the same actions. */
function useSampleActions() {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const refresh = () => Promise.all(CHANGED_BY_SAMPLE.map((queryKey) => client.invalidateQueries({ queryKey })));
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (e) {
      toast.error(e instanceof Error ? e.message : 'Something went wrong');
    } finally {
      setBusy(false);
      await refresh();
    }
  };
  return {
    busy,
    load: () =>
      run(async () => {
        const status = await loadSampleData();
        if (status.job_id) setActiveJobId(status.job_id);
        toast.success('Loading sample data');
      }),
    remove: () =>
      run(async () => {
        const removed = await removeSampleData();
        toast.success(`Sample data removed (${removed.invoices} invoices)`);
      }),
    refresh,
  };
}

/** When an import ends, the screens that show its invoices and statement are refreshed. */
function useRefreshWhenImported(status: SampleDataStatus | undefined, refresh: () => Promise<unknown>) {
  const importing = useRef(false);
  useEffect(() => {
    if (importing.current && status && !status.importing) void refresh();
    importing.current = status?.importing ?? false;
  }, [status, refresh]);
}

/**
 * "Try it with sample data" on an empty Dashboard or Invoice Analysis: nothing when this server has no sample or it is
 * already loaded.
 */
export function TrySampleDataButton() {
  const { data } = useSampleData();
  const { busy, load } = useSampleActions();
  if (!data?.available || data.loaded) return null;
  return (
    <Button variant="outline" size="sm" disabled={busy} onClick={() => void load()}>
      <FlaskConical className="h-4 w-4" aria-hidden="true" />
      Try it with sample data
    </Button>
  );
}

/** Above the Dashboard and Invoice Analysis while the sample is loaded: says so, with "Remove sample data". */
export function SampleDataBanner() {
  const { data } = useSampleData();
  const { busy, remove, refresh } = useSampleActions();
  useRefreshWhenImported(data, refresh);
  if (!data?.loaded) return null;
  return (
    <div
      role="status"
      className="mb-6 flex flex-wrap items-center gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <SampleBadge />
      <p className="min-w-0 flex-1">
        {data.importing
          ? 'Importing the sample mailbox and bank statement…'
          : `You are looking at sample data: ${data.invoices} invoices from the Sample mailbox (${data.account_email}) and a sample bank statement.`}
      </p>
      <Button size="sm" variant="outline" disabled={busy || data.importing} onClick={() => void remove()}>
        <Trash2 className="h-4 w-4" aria-hidden="true" />
        Remove sample data
      </Button>
    </div>
  );
}

/** Settings: the sample in every state (not on this server, not loaded, importing, loaded). */
export function SampleDataCard() {
  const { data } = useSampleData();
  const { busy, load, remove, refresh } = useSampleActions();
  useRefreshWhenImported(data, refresh);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Sample data {data?.loaded ? <SampleBadge /> : null}
        </CardTitle>
        <CardDescription>
          {WHAT_IT_IS} Everything it adds is marked as sample and removed with one click.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3 text-sm text-slate-600">
        {!data ? null : !data.available ? (
          <p>
            Sample data is not available on this server: it is generated when the server is built (
            <code>npm run build</code>).
          </p>
        ) : data.loaded ? (
          <>
            <p>
              {data.importing
                ? 'Importing the sample mailbox and bank statement…'
                : `Loaded: ${data.invoices} invoices in the Sample mailbox (${data.account_email}) and ${data.statement_ids.length} sample bank statement.`}
            </p>
            <Button size="sm" variant="outline" disabled={busy || data.importing} onClick={() => void remove()}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Remove sample data
            </Button>
          </>
        ) : (
          <Button size="sm" disabled={busy} onClick={() => void load()}>
            <FlaskConical className="h-4 w-4" aria-hidden="true" />
            Try it with sample data
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

/** The badge beside an account of Settings' list when it is the sample mailbox. */
export function SampleAccountBadge({ accountId }: { accountId: string }) {
  const { data } = useSampleData();
  return data?.account_id === accountId ? <SampleBadge /> : null;
}
