/** The derived display status of an invoice (SPEC §4) and its mapping back to the stored status for filtering. */

export type StoredInvoiceStatus = 'uploaded' | 'failed' | 'pending' | (string & {});
export type DisplayStatus = 'ready_to_process' | 'missing' | 'needs_action';
export type BadgeVariant = 'default' | 'destructive' | 'secondary';

export interface DisplayStatusInfo {
  status: DisplayStatus;
  label: string;
  badge: BadgeVariant;
  color: 'green' | 'red' | 'yellow';
}

export const DISPLAY_STATUSES: Readonly<Record<DisplayStatus, DisplayStatusInfo>> = {
  ready_to_process: { status: 'ready_to_process', label: 'Ready to Process', badge: 'default', color: 'green' },
  missing: { status: 'missing', label: 'Missing', badge: 'destructive', color: 'red' },
  needs_action: { status: 'needs_action', label: 'Needs Action', badge: 'secondary', color: 'yellow' },
};

/** uploaded with a drive_file_id → ready_to_process; failed → missing; anything else → needs_action. */
export function displayStatus(invoice: {
  status: StoredInvoiceStatus | null | undefined;
  drive_file_id?: string | null;
}): DisplayStatusInfo {
  if (invoice.status === 'uploaded' && invoice.drive_file_id) return DISPLAY_STATUSES.ready_to_process;
  if (invoice.status === 'failed') return DISPLAY_STATUSES.missing;
  return DISPLAY_STATUSES.needs_action;
}

const STORED_STATUS_FOR_FILTER: Readonly<Record<DisplayStatus, StoredInvoiceStatus>> = {
  ready_to_process: 'uploaded',
  missing: 'failed',
  needs_action: 'pending',
};

/** The stored status a display-status filter asks for; any other value passes through unchanged. */
export function storedStatusForFilter(filter: DisplayStatus | (string & {})): StoredInvoiceStatus {
  return (STORED_STATUS_FOR_FILTER as Record<string, StoredInvoiceStatus>)[filter] ?? filter;
}
