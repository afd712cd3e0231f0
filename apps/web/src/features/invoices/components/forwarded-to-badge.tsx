import type { InvoiceForwardedTo } from '@invoicebox/core';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';

const GROUPS: ReadonlyArray<{
  statuses: ReadonlyArray<InvoiceForwardedTo['status']>;
  label: string;
  variant: BadgeVariant;
}> = [
  { statuses: ['sent'], label: 'Forwarded to', variant: 'info' },
  { statuses: ['pending', 'sending'], label: 'Forwarding to', variant: 'secondary' },
  { statuses: ['failed'], label: 'Not forwarded to', variant: 'destructive' },
];

/**
 * The invoice card's forwarded-to badges: one per outcome (sent, queued, failed), naming the first recipient and
 * how many more; the full list, with the reason of a failure, is in the tooltip and read out to screen readers.
 */
export function ForwardedToBadges({ deliveries }: { deliveries: readonly InvoiceForwardedTo[] | undefined }) {
  if (!deliveries?.length) return null;
  return (
    <>
      {GROUPS.map(({ statuses, label, variant }) => {
        const rows = deliveries.filter((d) => statuses.includes(d.status));
        const first = rows[0];
        if (!first) return null;
        const full = `${label} ${rows.map((d) => (d.error ? `${d.recipient} (${d.error})` : d.recipient)).join(', ')}`;
        return (
          <Badge key={label} variant={variant} title={full} className="max-w-full">
            <span aria-hidden="true" className="truncate">
              {label} {first.recipient}
              {rows.length > 1 ? ` +${rows.length - 1}` : ''}
            </span>
            <span className="sr-only">{full}</span>
          </Badge>
        );
      })}
    </>
  );
}
