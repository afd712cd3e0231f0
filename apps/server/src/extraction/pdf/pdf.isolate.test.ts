import { afterAll, describe, expect, it } from 'vitest';
import { extractInvoiceFields } from '../extraction.service';
import { javascriptPdf, slowTextPdf } from '../test-support/bad-inputs';
import { readPdfTextIsolated, terminatePdfWorker } from './pdf.isolate';

afterAll(() => terminatePdfWorker());

describe('PDF text step in a worker with a hard time limit', () => {
  it('stops a worker stuck in a synchronous loop and reads the next file with a fresh one', async () => {
    const hang = `require('node:worker_threads').parentPort.on('message', () => { for (;;) {} });`;
    const t0 = performance.now();
    await expect(readPdfTextIsolated(javascriptPdf(), 10, 200, hang)).rejects.toMatchObject({ code: 'pdf_timeout' });
    expect(performance.now() - t0).toBeLessThan(2000);
    const text = await readPdfTextIsolated(javascriptPdf(), 10, 10_000);
    expect(text.words.map((w) => w.text).join(' ')).toContain('JS-1');
  });

  it('gives up on a pathological PDF within the limit and reports pdf_timeout', async () => {
    const bytes = slowTextPdf();
    const t0 = performance.now();
    const r = await extractInvoiceFields({ bytes, filename: 'slow.pdf' }, { ocr: false, limits: { timeoutMs: 300 } });
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(r.errors[0]?.code).toMatch(/timeout/);
    // The next document still reads normally.
    const ok = await extractInvoiceFields({ bytes: javascriptPdf(), filename: 'ok.pdf' }, { ocr: false });
    expect(ok.errors).toEqual([]);
    expect(ok.invoice_number).toBe('JS-1');
  });

  it('maps unreadable input to pdf_invalid', async () => {
    await expect(readPdfTextIsolated(new TextEncoder().encode('%PDF-1.7 garbage'), 10, 5000)).rejects.toMatchObject({
      code: 'pdf_invalid',
    });
  });
});
