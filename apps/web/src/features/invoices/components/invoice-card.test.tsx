import type { Invoice } from '@invoicebox/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/render';
import { InvoiceCard } from './invoice-card';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

const INVOICE: Invoice = {
  id: '6f1c2b9e-8a4d-4c1e-9b7a-2d3e4f5a6b7c',
  vendor: 'Acme GmbH',
  email: 'billing@acme.example',
  amount: '€120.00',
  amount_minor: 12_000,
  currency: 'EUR',
  invoice_date: '2024-03-05',
  invoice_number: 'AC-1',
  status: 'uploaded',
  drive_file_id: 'Invoices/2024/03/2024-03-05 Acme GmbH AC-1.pdf',
  category: 'Invoice',
  details: 'Your invoice March',
  frequency: 'Monthly',
  drive_error: null,
  attachments: [
    {
      id: '0',
      filename: 'invoice.pdf',
      size: 2048,
      mimeType: 'application/pdf',
      url: '/api/v1/invoices/6f1c2b9e-8a4d-4c1e-9b7a-2d3e4f5a6b7c/attachments/0',
    },
  ],
};

/** A fetch stand-in that serves file bytes (the JSON stand-in has no blob()). */
function serveFiles(files: Record<string, string>) {
  const calls: string[] = [];
  const fn = async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(url.pathname);
    const body = files[url.pathname];
    if (body === undefined) return { ok: false, status: 404, text: async () => '{"error":"Not found"}' } as Response;
    return {
      ok: true,
      status: 200,
      headers: new Headers({ 'content-disposition': 'attachment; filename="invoice.pdf"' }),
      blob: async () => new Blob([body]),
      text: async () => body,
    } as unknown as Response;
  };
  return { fn, calls };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('InvoiceCard', () => {
  it('shows vendor, amount, short US date, status, category and frequency badges and the file size', () => {
    render(<InvoiceCard invoice={INVOICE} />);
    expect(screen.getByRole('heading', { name: 'Acme GmbH' })).toBeInTheDocument();
    expect(screen.getByText('billing@acme.example')).toBeInTheDocument();
    expect(screen.getByText('€120.00')).toBeInTheDocument();
    expect(screen.getByText('Invoice')).toBeInTheDocument();
    expect(screen.getByText('Your invoice March')).toBeInTheDocument();
    expect(screen.getByText('invoice.pdf')).toBeInTheDocument();
    expect(screen.getByText('03/05/2024')).toBeInTheDocument();
    expect(screen.getByText('Ready to Process')).toBeInTheDocument();
    expect(screen.getByText('Monthly')).toBeInTheDocument();
    expect(screen.getByText('2.0 KB')).toBeInTheDocument();
    expect(screen.queryByText(/Could not be read/)).not.toBeInTheDocument();
  });

  it('says that it was paid, with the bank transaction that paid it, its amount as money', () => {
    render(
      <InvoiceCard
        invoice={{
          ...INVOICE,
          payment: {
            statement_id: 's-1',
            transaction_id: 't-1',
            date: '2024-03-08',
            amount: 2345.6,
            currency: 'EUR',
            description: 'SEPA ACME GMBH AC-1',
          },
        }}
      />,
    );
    expect(screen.getByText('Paid')).toBeInTheDocument();
    expect(screen.getByText('Paid 03/08/2024: €2,345.60 — SEPA ACME GMBH AC-1')).toBeInTheDocument();
  });

  it("marks an invoice of the sample mailbox with a 'Sample data' badge, and only those", () => {
    const { unmount } = render(<InvoiceCard invoice={{ ...INVOICE, sample: true }} />);
    const badge = screen.getByText('Sample data');
    // Beside the vendor's name.
    expect(badge.parentElement).toContainElement(screen.getByRole('heading', { name: 'Acme GmbH' }));
    unmount();
    render(<InvoiceCard invoice={{ ...INVOICE, sample: false }} />);
    expect(screen.queryByText('Sample data')).toBeNull();
  });

  it('marks the fields read with low confidence and says which to check; a sure reading has no mark', () => {
    const { unmount } = render(
      <InvoiceCard invoice={{ ...INVOICE, low_confidence_fields: ['vendor', 'amount', 'invoice_number'] }} />,
    );
    expect(
      screen.getByText('Please check the vendor, amount and invoice number: read with low confidence.'),
    ).toBeInTheDocument();
    expect(screen.getAllByText('(read with low confidence)')).toHaveLength(3);
    expect(screen.getAllByTitle('Read with low confidence: please check')).toHaveLength(3);
    unmount();
    render(<InvoiceCard invoice={{ ...INVOICE, low_confidence_fields: [] }} />);
    expect(screen.queryByText(/low confidence/)).not.toBeInTheDocument();
  });

  it("shows what the document is when it is not a plain invoice: 'Credit note', 'Order confirmation'…", () => {
    const { unmount } = render(<InvoiceCard invoice={{ ...INVOICE, document_type: 'order_confirmation' }} />);
    expect(screen.getByTestId('document-type')).toHaveTextContent('Order confirmation');
    unmount();
    const second = render(<InvoiceCard invoice={{ ...INVOICE, document_type: 'credit_note' }} />);
    expect(screen.getByTestId('document-type')).toHaveTextContent('Credit note');
    second.unmount();
    // A plain invoice, or one whose type is not read yet, has no such badge.
    for (const document_type of ['invoice', null, undefined] as const) {
      const card = render(<InvoiceCard invoice={{ ...INVOICE, document_type }} />);
      expect(screen.queryByTestId('document-type')).toBeNull();
      card.unmount();
    }
  });

  it('says under a file why it could not be read', () => {
    const attachment = {
      ...INVOICE.attachments[0]!,
      read_error: 'document could not be read: out of memory at 1024 MB',
    };
    render(<InvoiceCard invoice={{ ...INVOICE, attachments: [attachment] }} />);
    expect(
      screen.getByText('Could not be read: document could not be read: out of memory at 1024 MB'),
    ).toBeInTheDocument();
  });

  it('opens the drive link the server gives in the window it opened at the click', async () => {
    const server = mockFetch((url, init) =>
      url.pathname === `/api/v1/invoices/${INVOICE.id}/drive-link` && init?.method === 'POST'
        ? { body: { url: '/api/v1/drive/open?link=v1.token' } }
        : undefined,
    );
    vi.stubGlobal('fetch', server.fn);
    const popup = { location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    render(<InvoiceCard invoice={INVOICE} />);
    await userEvent.click(screen.getByRole('button', { name: 'Drive' }));
    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(popup.location.href).toBe('/api/v1/drive/open?link=v1.token'));
  });

  it('closes the window and says why when the file cannot be opened', async () => {
    const server = mockFetch(() => ({ status: 404, body: { error: 'This invoice is not in the drive yet' } }));
    vi.stubGlobal('fetch', server.fn);
    const popup = { location: { href: '' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    render(<InvoiceCard invoice={INVOICE} />);
    await userEvent.click(screen.getByRole('button', { name: 'Drive' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('This invoice is not in the drive yet'));
    expect(popup.close).toHaveBeenCalled();
  });

  it('has no Drive button before the upload, and a failed upload shows its reason', () => {
    const { rerender } = render(<InvoiceCard invoice={{ ...INVOICE, status: 'pending', drive_file_id: null }} />);
    expect(screen.queryByRole('button', { name: 'Drive' })).toBeNull();
    expect(screen.getByText('Needs Action')).toBeInTheDocument();
    rerender(
      <InvoiceCard
        invoice={{ ...INVOICE, status: 'failed', drive_file_id: null, drive_error: 'The file is missing from storage' }}
      />,
    );
    expect(screen.getByText('Missing')).toBeInTheDocument();
    expect(screen.getByText('Not filed in the drive: The file is missing from storage')).toBeInTheDocument();
  });

  it.each([
    // The stored exact amount, whatever the amount string says (it once read '€5,178.43' as €5.18).
    [{ amount: '€5,178.43', amount_minor: 517_843, currency: 'EUR' }, '€5,178.43'],
    [{ amount: 'RON 1,875.08', amount_minor: 187_508, currency: 'RON' }, 'RON 1,875.08'],
    [{ amount: '€752.70', amount_minor: 75_270, currency: 'EUR' }, '€752.70'],
    [{ amount: '₹1,23,456.78', amount_minor: 12_345_678, currency: 'INR' }, '₹123,456.78'],
    // No exact amount stored: the string read by the money parser, in each number style.
    [{ amount: '$5,178.43', amount_minor: null, currency: null }, '$5,178.43'],
    [{ amount: '1.234,56 €', amount_minor: null, currency: 'EUR' }, '€1,234.56'],
    [{ amount: '1 234,56 zł', amount_minor: null, currency: 'PLN' }, 'PLN 1,234.56'],
    [{ amount: "CHF 1'234.56", amount_minor: null, currency: 'CHF' }, 'CHF 1,234.56'],
    [{ amount: '1,23,456.78', amount_minor: null, currency: 'INR' }, '₹123,456.78'],
  ])('shows %j as %s', (money, shown) => {
    render(<InvoiceCard invoice={{ ...INVOICE, ...money }} />);
    expect(
      screen.getByText((_, el) => el?.tagName === 'P' && el.textContent?.replace(/\u00a0/g, ' ') === shown),
    ).toBeInTheDocument();
  });

  it('View fetches each previewable file only at the click and shows it in the popup; others get a note', async () => {
    const files = serveFiles({ [`/api/v1/invoices/${INVOICE.id}/attachments/0`]: '%PDF-1.4 bytes' });
    vi.stubGlobal('fetch', files.fn);
    const popup = document.implementation.createHTMLDocument('popup');
    const open = vi.spyOn(window, 'open').mockReturnValue({ document: popup } as unknown as Window);
    const invoice = {
      ...INVOICE,
      attachments: [
        ...INVOICE.attachments,
        {
          id: '1',
          filename: 'terms.html',
          size: 10,
          mimeType: 'text/html',
          url: `/api/v1/invoices/${INVOICE.id}/attachments/1`,
        },
      ],
    };
    render(<InvoiceCard invoice={invoice} />);
    expect(files.calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'View' }));
    // Spec §2/§9: the popup is sized at 75% of the screen.
    expect(open).toHaveBeenCalledWith(
      '',
      '_blank',
      `width=${Math.round(window.screen.width * 0.75)},height=${Math.round(window.screen.height * 0.75)}`,
    );
    await waitFor(() => expect(popup.querySelector('iframe')).not.toBeNull());
    const src = popup.querySelector('iframe')!.getAttribute('src')!;
    expect(src.startsWith('data:application/pdf;base64,')).toBe(true);
    expect(atob(src.split(',')[1]!)).toBe('%PDF-1.4 bytes');
    expect(popup.body.textContent).toContain('No preview for this file; use Download.');
    // Only the PDF was fetched: the HTML file is never loaded for a preview.
    expect(files.calls).toEqual([`/api/v1/invoices/${INVOICE.id}/attachments/0`]);
  });

  it('Download fetches each file from its download route at the click', async () => {
    const files = serveFiles({ [`/api/v1/invoices/${INVOICE.id}/attachments/0`]: '%PDF-1.4 bytes' });
    vi.stubGlobal('fetch', files.fn);
    const created = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    render(<InvoiceCard invoice={INVOICE} />);
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(files.calls).toEqual([`/api/v1/invoices/${INVOICE.id}/attachments/0`]);
  });

  it('says the amount was not found', () => {
    render(<InvoiceCard invoice={{ ...INVOICE, amount: null, amount_minor: null }} />);
    expect(screen.getByText('Amount not detected / Check attachments')).toBeInTheDocument();
  });
});

describe('InvoiceCard forwarded-to badges', () => {
  it('shows no badge when the invoice was not forwarded', () => {
    render(<InvoiceCard invoice={{ ...INVOICE, forwarded_to: [] }} />);
    expect(screen.queryByText(/forward/i)).not.toBeInTheDocument();
  });

  it('names the first recipient and counts the others, per outcome, with the full list for screen readers', () => {
    render(
      <InvoiceCard
        invoice={{
          ...INVOICE,
          forwarded_to: [
            { recipient: 'books@firm.example', status: 'sent', sent_at: '2024-03-06T10:00:00Z', error: null },
            { recipient: 'boss@firm.example', status: 'sent', sent_at: '2024-03-06T10:00:01Z', error: null },
            { recipient: 'late@firm.example', status: 'pending', sent_at: null, error: null },
            { recipient: 'gone@firm.example', status: 'failed', sent_at: null, error: '550 No such user' },
          ],
        }}
      />,
    );
    expect(screen.getByText('Forwarded to books@firm.example +1')).toBeInTheDocument();
    expect(screen.getByText('Forwarded to books@firm.example, boss@firm.example')).toHaveClass('sr-only');
    expect(screen.getAllByText('Forwarding to late@firm.example')).toHaveLength(2);
    expect(screen.getByText('Not forwarded to gone@firm.example (550 No such user)')).toHaveClass('sr-only');
  });
});
