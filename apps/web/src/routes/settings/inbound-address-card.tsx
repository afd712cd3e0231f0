import { type InboundAddress, InboundAddressSchema } from '@invoicebox/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Inbox, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/dialog';
import { api } from '../../lib/api-client';

const inboundKey = ['inbound-address'] as const;

function when(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Settings → Mail invoices in: the person's own address that invoices can be mailed or forwarded to, a copy button,
 * "New address" (the old one stops working), and the last mails that arrived there.
 */
export function InboundAddressCard() {
  const client = useQueryClient();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);
  const inbound = useQuery({
    queryKey: inboundKey,
    queryFn: ({ signal }) => api.get('/settings/inbound-address', { schema: InboundAddressSchema, signal }),
    staleTime: 0,
  });
  const data: InboundAddress | undefined = inbound.data;

  const copy = async (address: string) => {
    try {
      await navigator.clipboard.writeText(address);
      toast.success('Address copied');
    } catch {
      toast.error('Could not copy: select the address and copy it yourself');
    }
  };

  const rotate = async () => {
    setRotating(true);
    try {
      client.setQueryData(
        inboundKey,
        await api.post('/settings/inbound-address/rotate', { schema: InboundAddressSchema }),
      );
      toast.success('New address made; the old one no longer accepts mail');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not make a new address');
    } finally {
      setRotating(false);
      setConfirming(false);
    }
  };

  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2">
          <Inbox className="h-5 w-5 text-indigo-600" aria-hidden="true" />
          Mail invoices in
        </CardTitle>
        <CardDescription>
          Your own address: mail or forward invoices to it (from a colleague, a supplier portal, a Gmail filter) and
          they are read like the mail of a connected mailbox.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {inbound.isPending ? (
          <p className="text-sm text-slate-500">Loading your address…</p>
        ) : inbound.isError ? (
          <p className="text-sm text-red-600" role="alert">
            Could not load your invoice address: {inbound.error.message}
          </p>
        ) : !data?.enabled || !data.address ? (
          <p className="text-sm text-slate-600">
            Not available on this server: the operator turns it on with <code>SMTP_INBOUND_PORT</code> and{' '}
            <code>SMTP_INBOUND_DOMAIN</code> (README, "An address to mail invoices to").
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <code
                className="min-w-0 basis-full break-all rounded-md sm:basis-auto sm:flex-1 border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900"
                data-testid="inbound-address"
              >
                {data.address}
              </code>
              <Button variant="outline" size="sm" onClick={() => void copy(data.address as string)}>
                <Copy className="mr-1 h-4 w-4" aria-hidden="true" />
                Copy
              </Button>
              <Button variant="outline" size="sm" onClick={() => setConfirming(true)} disabled={rotating}>
                <RefreshCw className="mr-1 h-4 w-4" aria-hidden="true" />
                New address
              </Button>
            </div>
            <p className="text-xs text-slate-500">
              Keep it private: anyone who has it can send you documents. Mail for any other address is refused.
            </p>
            <div>
              <h3 className="text-sm font-medium text-slate-900">Last received</h3>
              {data.recent.length === 0 ? (
                <p className="text-sm text-slate-500">Nothing has arrived yet.</p>
              ) : (
                <ul className="mt-1 divide-y divide-slate-100 text-sm" aria-label="Mails received at your address">
                  {data.recent.map((mail) => (
                    <li
                      key={`${mail.received_at}-${mail.subject}`}
                      className="flex flex-wrap items-center gap-2 py-1.5"
                    >
                      <span className="text-slate-500">{when(mail.received_at)}</span>
                      <span className="min-w-0 flex-1 truncate text-slate-800" title={mail.from ?? undefined}>
                        {mail.subject || '(no subject)'}
                      </span>
                      <Badge variant={mail.is_invoice ? 'success' : 'secondary'}>
                        {mail.is_invoice ? 'Invoice' : 'Not an invoice'}
                      </Badge>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title="Make a new address?"
        description="The current address stops accepting mail at once. Update your forwarding rules to the new one."
        confirmLabel="Make new address"
        onConfirm={() => void rotate()}
        onCancel={() => setConfirming(false)}
        pending={rotating}
      />
    </Card>
  );
}
