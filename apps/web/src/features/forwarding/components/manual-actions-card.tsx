import type { ForwardingConfig } from '@invoicebox/core';
import { Send } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';

export const MANUAL_TEXT = {
  notReady: 'Enable forwarding and add at least one recipient, then save, to forward now.',
  unsaved: 'Save the configuration first: Forward Now uses the saved settings.',
  running: 'A forwarding job is running.',
  noSenderTitle: 'No sender is configured',
} as const;

interface Props {
  /** The saved configuration (undefined while loading or when it could not be read). */
  config: ForwardingConfig | undefined;
  dirty: boolean;
  jobRunning: boolean;
  starting: boolean;
  onStart: () => void;
}

/** Why Forward Now cannot start, in the order a person fixes things; null when it can. */
export function forwardNowBlocker(config: ForwardingConfig | undefined, dirty: boolean, jobRunning: boolean) {
  if (!config?.enabled || config.target_emails.length === 0) return MANUAL_TEXT.notReady;
  if (!config.sender.configured) return config.sender.reason || MANUAL_TEXT.noSenderTitle;
  if (dirty) return MANUAL_TEXT.unsaved;
  if (jobRunning) return MANUAL_TEXT.running;
  return null;
}

/**
 * Spec §2 Manual Actions: 'Forward Now', disabled unless forwarding is enabled with at least one recipient; it also
 * needs a sender, and queues every invoice not yet delivered to each recipient (the backlog).
 */
export function ManualActionsCard({ config, dirty, jobRunning, starting, onStart }: Props) {
  const helpId = useId();
  const senderId = useId();
  const blocker = forwardNowBlocker(config, dirty, jobRunning);
  // Without a sender the warning above says why; it is the button's description rather than said twice.
  const noSender = config !== undefined && !config.sender.configured;
  const senderBlocks = noSender && blocker !== null && blocker !== MANUAL_TEXT.notReady;
  const backlog = config?.backlog ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Manual Actions</CardTitle>
        <CardDescription>
          Forward Now sends every invoice not yet forwarded to each recipient, including invoices found before
          forwarding was enabled.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {noSender ? (
          // The server's reason names the problem itself; the title is only for when it gives none.
          <Alert id={senderId} variant="warning" title={config.sender.reason ? undefined : MANUAL_TEXT.noSenderTitle}>
            {config.sender.reason ? <p>{config.sender.reason}</p> : null}
            <Link to="/settings" className="mt-1 inline-block font-medium underline underline-offset-2">
              Open Settings
            </Link>
          </Alert>
        ) : null}
        {config ? (
          <p className="text-sm text-slate-600">
            {backlog === 0
              ? 'Every invoice has been forwarded, or is queued, for every recipient.'
              : `${backlog === 1 ? '1 invoice is' : `${backlog} invoices are`} not yet forwarded to every recipient.`}
          </p>
        ) : null}
        <Button
          className="w-full sm:w-auto"
          disabled={blocker !== null || starting}
          aria-describedby={senderBlocks ? senderId : blocker ? helpId : undefined}
          onClick={onStart}
        >
          <Send className="h-4 w-4" aria-hidden="true" />
          {starting ? 'Starting…' : 'Forward Now'}
        </Button>
        {blocker && !senderBlocks ? (
          <p id={helpId} className="text-sm text-slate-500">
            {blocker}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
