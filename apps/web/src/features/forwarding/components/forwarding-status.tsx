import { FORWARDING_SENDER_LABELS, type ForwardingConfig } from '@invoicebox/core';
import { Badge } from '../../../components/ui/badge';

/** Spec §2: the status (Active or Inactive) and the recipient count, of the saved configuration; and who sends. */
export function ForwardingStatus({ config }: { config: ForwardingConfig | undefined }) {
  const active = Boolean(config?.enabled);
  const count = config?.target_emails.length ?? 0;
  const sender = config?.sender;
  return (
    <section aria-label="Forwarding status" className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
      <span>Status:</span>
      <Badge variant={active ? 'success' : 'secondary'}>{active ? 'Active' : 'Inactive'}</Badge>
      <span>{count === 1 ? '1 recipient' : `${count} recipients`}</span>
      {sender?.configured && sender.kind ? (
        <span className="basis-full sm:basis-auto">
          <span className="hidden sm:inline">· </span>Sent with {FORWARDING_SENDER_LABELS[sender.kind]}
          {sender.from ? ` as ${sender.from}` : ''}
        </span>
      ) : null}
      {sender && !sender.configured ? (
        <span className="basis-full text-amber-800 sm:basis-auto">
          <span className="hidden sm:inline">· </span>No sender configured
        </span>
      ) : null}
      {config?.enabled && config.enabled_at ? (
        <span className="basis-full sm:basis-auto">
          <span className="hidden sm:inline">· </span>Enabled since {new Date(config.enabled_at).toLocaleString()}
        </span>
      ) : null}
    </section>
  );
}
