import {
  DOCUMENT_TYPE_LABELS,
  displayStatus,
  formatCurrency,
  formatFileSize,
  formatInvoiceAmount,
  formatShortUsDate,
  type Invoice,
  isFinancialDocument,
  isPreviewableDataUrl,
  type LowConfidenceField,
  SAMPLE_BADGE_LABEL,
} from '@invoicebox/core';
import { CircleAlert, Download, Eye, HardDrive, Paperclip } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';
import { apiBlob, apiDownload } from '../../../lib/api-client';
import { getDriveLink } from '../api/invoices-api';
import { ForwardedToBadges } from './forwarded-to-badge';

type Attachment = Invoice['attachments'][number];

/** The API path of an attachment's bytes (its `url` without the /api/v1 the client adds). */
const attachmentPath = (invoice: Invoice, a: Attachment) => `/invoices/${invoice.id}/attachments/${a.id}`;

/** Spec §5: only images and PDFs are previewed; anything else is offered for download, never rendered. */
const previewable = (a: Attachment) => isPreviewableDataUrl(`data:${a.mimeType.toLowerCase()};base64,`);

/** The bytes as a data: URL of the attachment's own type (a data: frame has no origin of ours, as before). */
async function dataUrlOf(blob: Blob, mimeType: string): Promise<string> {
  const typed = new Blob([blob], { type: mimeType });
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(typed);
  });
}

/**
 * Spec §2 View: every attachment in a popup window sized at 75% of the screen. The window opens at the click (a popup
 * opened after an await is blocked); each previewable file's bytes are fetched then, not with the list.
 */
function viewAttachments(invoice: Invoice) {
  const width = Math.round(window.screen.width * 0.75);
  const height = Math.round(window.screen.height * 0.75);
  const popup = window.open('', '_blank', `width=${width},height=${height}`);
  if (!popup) return;
  const doc = popup.document;
  doc.title = invoice.vendor ?? 'Attachments';
  for (const a of invoice.attachments) {
    const heading = doc.createElement('h3');
    heading.textContent = a.filename;
    const slot = doc.createElement('div');
    doc.body.append(heading, slot);
    const say = (text: string) => {
      const p = doc.createElement('p');
      p.textContent = text;
      slot.replaceChildren(p);
    };
    if (!previewable(a)) {
      say('No preview for this file; use Download.');
      continue;
    }
    say('Loading…');
    void apiBlob(attachmentPath(invoice, a))
      .then((blob) => dataUrlOf(blob, a.mimeType))
      .then((url) => {
        const frame = doc.createElement(a.mimeType.toLowerCase().startsWith('image/') ? 'img' : 'iframe');
        frame.setAttribute('src', url);
        frame.setAttribute('title', a.filename);
        // Through CSSOM: the popup inherits the app's CSP, which refuses style attributes.
        Object.assign(frame.style, { width: '100%', height: '80vh', border: '0' });
        slot.replaceChildren(frame);
      })
      .catch(() => say('Could not load this file; use Download.'));
  }
}

/** Spec §2 Download: each attachment saved, its bytes fetched from the API at the click. */
function download(invoice: Invoice) {
  for (const a of invoice.attachments) {
    void apiDownload(attachmentPath(invoice, a), { fallbackName: a.filename }).catch(() =>
      toast.error(`Could not download ${a.filename}`),
    );
  }
}

/**
 * Spec §2 Drive: opens the file in the drive. The window is opened at once (a popup opened after an await is blocked)
 * and sent to the link the server gives: Google Drive's page, or a one-minute link to the file on this server.
 */
async function openInDrive(invoice: Invoice) {
  const popup = window.open('', '_blank');
  try {
    const { url } = await getDriveLink(invoice.id);
    if (popup) popup.location.href = url;
    else window.location.assign(url);
  } catch (error) {
    popup?.close();
    toast.error(error instanceof Error ? error.message : 'Could not open the drive file');
  }
}

/** How a low-confidence field is named in the card's "Please check" line. */
const FIELD_LABELS: Record<LowConfidenceField, string> = {
  vendor: 'vendor',
  amount: 'amount',
  currency: 'currency',
  invoice_date: 'date',
  invoice_number: 'invoice number',
};

/** A field value read with low confidence: marked, with the reason on hover and for screen readers. */
function Unsure({ invoice, field }: { invoice: Invoice; field: LowConfidenceField }) {
  if (!invoice.low_confidence_fields?.includes(field)) return null;
  return (
    <span title="Read with low confidence: please check" className="ml-1 inline-flex align-middle text-amber-600">
      <CircleAlert aria-hidden="true" className="h-3.5 w-3.5" />
      <span className="sr-only">(read with low confidence)</span>
    </span>
  );
}

export function InvoiceCard({ invoice }: { invoice: Invoice }) {
  const unsure = invoice.low_confidence_fields ?? [];
  const status = displayStatus(invoice);
  const badge = status.badge === 'destructive' ? 'destructive' : status.badge === 'default' ? 'success' : 'warning';
  // What the document is, when it is not a plain invoice (or not read yet): a credit note, a receipt, an order
  // confirmation... listed like the invoices, but not counted in the sums, the drive or the reconciliation.
  const type = invoice.document_type && invoice.document_type !== 'invoice' ? invoice.document_type : null;
  return (
    <Card>
      <CardContent className="space-y-3 pt-6">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
              <h3 className="max-w-full truncate font-semibold text-slate-900">
                {invoice.vendor || 'Unknown Vendor'}
                <Unsure invoice={invoice} field="vendor" />
              </h3>
              {/* Beside the name (under a long one), so a sample invoice is never taken for one of the person's own. */}
              {invoice.sample ? (
                <Badge variant="warning" className="shrink-0">
                  {SAMPLE_BADGE_LABEL}
                </Badge>
              ) : null}
            </div>
            <p className="truncate text-sm text-slate-500">{invoice.email}</p>
          </div>
          <div className="text-right">
            <p className="font-semibold text-slate-900">
              {formatInvoiceAmount(invoice)}
              <Unsure invoice={invoice} field={unsure.includes('amount') ? 'amount' : 'currency'} />
            </p>
            <p className="text-sm text-slate-500">
              {formatShortUsDate(invoice.invoice_date)}
              <Unsure invoice={invoice} field="invoice_date" />
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {type ? (
            <Badge variant={isFinancialDocument(type) ? 'secondary' : 'warning'} data-testid="document-type">
              {DOCUMENT_TYPE_LABELS[type]}
            </Badge>
          ) : null}
          <Badge variant={badge}>{status.label}</Badge>
          <Badge variant="outline">{invoice.category}</Badge>
          <Badge variant="secondary">{invoice.frequency}</Badge>
          {invoice.invoice_number ? (
            <Badge variant="secondary">
              No. {invoice.invoice_number}
              <Unsure invoice={invoice} field="invoice_number" />
            </Badge>
          ) : null}
          {invoice.payment ? <Badge variant="success">Paid</Badge> : null}
          <ForwardedToBadges deliveries={invoice.forwarded_to} />
        </div>
        {invoice.payment ? (
          <p className="text-sm text-slate-600">
            Paid {formatShortUsDate(invoice.payment.date)}:{' '}
            {formatCurrency(Math.abs(invoice.payment.amount), invoice.payment.currency)} — {invoice.payment.description}
          </p>
        ) : null}
        {unsure.length > 0 ? (
          <p className="flex items-center gap-1 text-sm text-amber-700">
            <CircleAlert aria-hidden="true" className="h-4 w-4 shrink-0" />
            Please check the {listOf(unsure.map((f) => FIELD_LABELS[f]))}: read with low confidence.
          </p>
        ) : null}
        {invoice.details ? <p className="line-clamp-2 text-sm text-slate-600">{invoice.details}</p> : null}
        {invoice.status === 'failed' && invoice.drive_error ? (
          <p className="text-sm text-red-700">Not filed in the drive: {invoice.drive_error}</p>
        ) : null}
        {invoice.attachments.length > 0 ? (
          <ul className="space-y-1 text-sm text-slate-600">
            {invoice.attachments.map((a) => (
              <li key={a.id}>
                <div className="flex items-center gap-2">
                  <Paperclip className="h-3.5 w-3.5 text-slate-400" aria-hidden="true" />
                  <span className="truncate">{a.filename}</span>
                  <span className="text-slate-500">{formatFileSize(a.size)}</span>
                </div>
                {a.read_error ? <p className="pl-5 text-xs text-red-700">Could not be read: {a.read_error}</p> : null}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="outline"
            onClick={() => viewAttachments(invoice)}
            disabled={!invoice.attachments.length}
          >
            <Eye className="h-4 w-4" aria-hidden="true" />
            View
          </Button>
          <Button size="sm" variant="outline" onClick={() => download(invoice)} disabled={!invoice.attachments.length}>
            <Download className="h-4 w-4" aria-hidden="true" />
            Download
          </Button>
          {invoice.status === 'uploaded' ? (
            <Button
              size="sm"
              variant="outline"
              disabled={!invoice.drive_file_id}
              onClick={() => void openInDrive(invoice)}
            >
              <HardDrive className="h-4 w-4" aria-hidden="true" />
              Drive
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}

/** "amount", "amount and date", "vendor, amount and date". */
function listOf(words: string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
