import { Badge } from '../../../components/ui/badge';
import { dashboardStatus } from '../format';

const LOOK = {
  processed: { variant: 'success', label: 'Processed' },
  pending: { variant: 'warning', label: 'Pending' },
  failed: { variant: 'destructive', label: 'Failed' },
} as const;

/** A statement's status; anything but processed or pending shows as failed (spec §3). */
export function BankStatusBadge({ status }: { status: string }) {
  const look = LOOK[dashboardStatus(status)];
  return <Badge variant={look.variant}>{look.label}</Badge>;
}
