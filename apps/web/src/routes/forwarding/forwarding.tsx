import { FORWARDING_MAX_RECIPIENTS } from '@invoicebox/core';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '../../components/page-header';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import {
  FORWARDING_TEXT,
  useForwardingConfig,
  useForwardingStats,
  useSaveForwardingConfig,
  useStartForwarding,
} from '../../features/forwarding/api/forwarding-api';
import {
  ForwardingConfigCard,
  type ForwardingDraft,
} from '../../features/forwarding/components/forwarding-config-card';
import { ForwardingStatsCards } from '../../features/forwarding/components/forwarding-stats-cards';
import { ForwardingStatus } from '../../features/forwarding/components/forwarding-status';
import { ForwardingWarnings } from '../../features/forwarding/components/forwarding-warnings';
import { HowItWorksCard } from '../../features/forwarding/components/how-it-works-card';
import { ManualActionsCard } from '../../features/forwarding/components/manual-actions-card';
import { useForwardingJobRunning } from '../../features/forwarding/hooks/use-forwarding-job';

const EMPTY_DRAFT: ForwardingDraft = { enabled: false, target_emails: [] };

const sameDraft = (a: ForwardingDraft, b: ForwardingDraft) =>
  a.enabled === b.enabled &&
  a.target_emails.length === b.target_emails.length &&
  a.target_emails.every((address, i) => address === b.target_emails[i]);

/** Spec §2 Forwarding ('Invoice Forwarding'). */
export function ForwardingRoute() {
  const config = useForwardingConfig();
  const jobRunning = useForwardingJobRunning();
  const stats = useForwardingStats(jobRunning);
  const save = useSaveForwardingConfig();
  const start = useStartForwarding();

  // The person's edits; null while they match the saved configuration, so a Refresh shows the server's.
  const [edits, setEdits] = useState<ForwardingDraft | null>(null);
  const saved: ForwardingDraft = config.data
    ? { enabled: config.data.enabled, target_emails: config.data.target_emails }
    : EMPTY_DRAFT;
  const draft = edits ?? saved;
  const dirty = edits !== null && !sameDraft(edits, saved);

  // Spec §8: the load messages are toasted once per failure, and stay on the screen.
  const configFailed = config.isError;
  useEffect(() => {
    if (configFailed) toast.error(FORWARDING_TEXT.loadFailed, { id: 'forwarding-config-load' });
  }, [configFailed]);
  const statsError = stats.error?.message;
  useEffect(() => {
    if (statsError) toast.error(`${FORWARDING_TEXT.statsFailed}${statsError}`, { id: 'forwarding-stats-load' });
  }, [statsError]);

  const onSave = () =>
    save.mutate(draft, {
      onSuccess: () => setEdits(null),
    });

  return (
    <>
      <PageHeader
        title="Invoice Forwarding"
        description="Send each invoice's original email on to the addresses you choose, once."
        actions={<ForwardingStatus config={config.data} />}
      />
      <ForwardingStatsCards stats={stats.data} error={stats.error} />
      {config.isError ? (
        <Alert variant="destructive" className="mb-6">
          <p>{FORWARDING_TEXT.loadFailed}</p>
          <Button size="sm" variant="outline" className="mt-2" onClick={() => void config.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-4 lg:col-span-2">
          <ForwardingWarnings enabled={draft.enabled} recipients={draft.target_emails.length} />
          {config.isPending ? <Spinner label="Loading forwarding configuration…" /> : null}
          <ForwardingConfigCard
            draft={draft}
            onChange={setEdits}
            onSave={onSave}
            saving={save.isPending}
            dirty={dirty}
            maxRecipients={config.data?.max_recipients ?? FORWARDING_MAX_RECIPIENTS}
            disabled={config.isPending}
          />
        </div>
        <div className="min-w-0 space-y-6">
          <ManualActionsCard
            config={config.data}
            dirty={dirty}
            jobRunning={jobRunning}
            starting={start.isPending}
            onStart={() => start.mutate()}
          />
          <HowItWorksCard rule={config.data?.rule} />
        </div>
      </div>
    </>
  );
}
