import { Alert } from '../../../components/ui/alert';

export const WARNING_TEXT = {
  noRecipients: {
    title: 'No recipients',
    body: 'Forwarding is enabled but there are no recipient addresses: nothing will be forwarded. Add at least one address.',
  },
  disabled: {
    title: 'Forwarding is disabled',
    body: 'Recipient addresses are set but forwarding is turned off: new invoices will not be forwarded until you enable it.',
  },
} as const;

/** Spec §2: enabled without recipients, or recipients set but forwarding disabled (as on the screen now). */
export function ForwardingWarnings({ enabled, recipients }: { enabled: boolean; recipients: number }) {
  if (enabled && recipients === 0) {
    return (
      <Alert variant="warning" title={WARNING_TEXT.noRecipients.title}>
        {WARNING_TEXT.noRecipients.body}
      </Alert>
    );
  }
  if (!enabled && recipients > 0) {
    return (
      <Alert variant="warning" title={WARNING_TEXT.disabled.title}>
        {WARNING_TEXT.disabled.body}
      </Alert>
    );
  }
  return null;
}
