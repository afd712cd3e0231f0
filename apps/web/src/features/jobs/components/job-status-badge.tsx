import type { JobStatus } from '@invoicebox/core';
import { Badge, type BadgeVariant } from '../../../components/ui/badge';

const STATUS: Record<JobStatus, { label: string; variant: BadgeVariant }> = {
  pending: { label: 'Pending', variant: 'secondary' },
  running: { label: 'Running', variant: 'info' },
  completed: { label: 'Completed', variant: 'success' },
  failed: { label: 'Failed', variant: 'destructive' },
};

export function JobStatusBadge({ status }: { status: JobStatus }) {
  const { label, variant } = STATUS[status];
  return <Badge variant={variant}>{label}</Badge>;
}
