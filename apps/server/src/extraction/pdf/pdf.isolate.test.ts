import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../eval/eval.dataset';
import { javascriptPdf, kernedTextPdf, slowTextPdf } from '../../../test/extraction/bad-inputs';
import { extractInvoiceFields } from '../extraction.service';
import {
  pdfLimits,
  readPdfTextIsolated,
  terminatePdfWorker,
  usePdfTextFastPath,
  usePrebuiltPdfjs,
  warmPdfWorker,
  writeTextPdfjs,
} from './pdf.isolate';

afterAll(async () => {
  await usePdfTextFastPath(true);
  await terminatePdfWorker();
});

const realPdfs = path.resolve(repoRoot(), '..', 'shared', 'datasets', 'invoices-pdf');

describe('text-only fast path of pdf.js (no font rebuilding, synchronous inflate)', () => {
  // Real PDFs with embedded TrueType, CID and Type 1 fonts: the words must not change by a character or a point.
  it.skipIf(!existsSync(realPdfs))(
    'reads exactly the same words as stock pdf.js',
    async () => {
      const files = readdirSync(realPdfs).filter((f) => f.endsWith('.pdf'));
      const read = async () => {
        const out: string[] = [];
        for (const f of files) {
          const t = await readPdfTextIsolated(
            new Uint8Array(readFileSync(path.join(realPdfs, f))),
            pdfLimits(50, 20_000),
          );
          for (const w of t.words)
            out.push(`${f} ${w.page} ${w.text} ${w.x0.toFixed(2)} ${w.y0.toFixed(2)} ${w.x1.toFixed(2)}`);
        }
        return out;
      };
      await usePdfTextFastPath(false);
      const stock = await read();
      await usePdfTextFastPath(true);
      const fast = await read();
      await terminatePdfWorker();
      expect(stock.length).toBeGreaterThan(500);
      expect(fast).toEqual(stock);
    },
    180_000,
  );
});

describe('word spacing', () => {
  // pdf.js reads any advance over 0.102 em as a space; kerning offsets of generators such as Apache FOP are larger.
  it('keeps a kerned word whole and still parts words a quarter em apart', async () => {
    const text = await readPdfTextIsolated(kernedTextPdf(), pdfLimits(10, 10_000));
    expect(text.words.map((w) => w.text).join(' ')).toBe('Lieferant GmbH');
    await terminatePdfWorker();
  });
});

describe('pdf.js patched by the build (dist/pdfjs-text.mjs)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdfjs-text-'));
  afterAll(async () => {
    await usePrebuiltPdfjs(null);
    rmSync(dir, { recursive: true, force: true });
  });
  const kerned = async () =>
    (await readPdfTextIsolated(kernedTextPdf(), pdfLimits(10, 10_000))).words.map((w) => w.text).join(' ');

  it.skipIf(!existsSync(realPdfs))(
    'reads the same words as the bundle patched when the worker starts',
    async () => {
      expect(writeTextPdfjs(dir)).toBe(true);
      const files = readdirSync(realPdfs).filter((f) => f.endsWith('.pdf'));
      const read = async () => {
        const out: string[] = [];
        for (const f of files) {
          const t = await readPdfTextIsolated(
            new Uint8Array(readFileSync(path.join(realPdfs, f))),
            pdfLimits(50, 20_000),
          );
          for (const w of t.words) out.push(`${f} ${w.page} ${w.text} ${w.x0.toFixed(2)} ${w.y0.toFixed(2)}`);
        }
        return out;
      };
      await usePrebuiltPdfjs(null);
      const patchedAtStart = await read();
      await usePrebuiltPdfjs(dir);
      expect(await read()).toEqual(patchedAtStart);
      expect(await kerned()).toBe('Lieferant GmbH');
    },
    120_000,
  );

  it('is used only when made from the installed pdf.js, and falls back to patching at start otherwise', async () => {
    expect(writeTextPdfjs(dir)).toBe(true);
    // Stock pdf.js in its place: now the worker's reading shows which one it imported (the word-spacing patch).
    const stock = path.join(path.dirname(createRequire(import.meta.url).resolve('unpdf')), 'pdfjs.mjs');
    copyFileSync(stock, path.join(dir, 'pdfjs-text.mjs'));
    await usePrebuiltPdfjs(dir);
    expect(await kerned()).toBe('Liefer ant GmbH');
    // Made from another pdf.js: ignored.
    const stamp = JSON.parse(readFileSync(path.join(dir, 'pdfjs-text.json'), 'utf8')) as { bytes: number };
    writeFileSync(path.join(dir, 'pdfjs-text.json'), JSON.stringify({ ...stamp, bytes: stamp.bytes + 1 }));
    await usePrebuiltPdfjs(dir);
    expect(await kerned()).toBe('Lieferant GmbH');
    // A file that fails to load: patched at start instead.
    writeFileSync(path.join(dir, 'pdfjs-text.json'), JSON.stringify(stamp));
    writeFileSync(path.join(dir, 'pdfjs-text.mjs'), 'throw new Error("broken");');
    await usePrebuiltPdfjs(dir);
    expect(await kerned()).toBe('Lieferant GmbH');
    await usePrebuiltPdfjs(null);
  });
});

describe('warm-up', () => {
  // The document arrives while the worker is still loading pdf.js: it waits for that load, with the fast path on.
  it('reads a document sent right after the warm-up, and one after the load', async () => {
    await terminatePdfWorker();
    warmPdfWorker();
    const first = await readPdfTextIsolated(kernedTextPdf(), pdfLimits(10, 10_000));
    expect(first.words.map((w) => w.text).join(' ')).toBe('Lieferant GmbH');
    warmPdfWorker(); // a running worker is kept
    const second = await readPdfTextIsolated(javascriptPdf(), pdfLimits(10, 10_000));
    expect(second.words.map((w) => w.text).join(' ')).toContain('JS-1');
    await terminatePdfWorker();
  });
});

describe('PDF text step in a worker with a hard time limit', () => {
  it('stops a worker stuck in a synchronous loop and reads the next file with a fresh one', async () => {
    const hang = `require('node:worker_threads').parentPort.on('message', () => { for (;;) {} });`;
    await terminatePdfWorker(); // the next read starts a worker from `hang`
    await expect(readPdfTextIsolated(javascriptPdf(), pdfLimits(10, 200), hang)).rejects.toMatchObject({
      code: 'pdf_timeout',
    });
    const text = await readPdfTextIsolated(javascriptPdf(), pdfLimits(10, 10_000));
    expect(text.words.map((w) => w.text).join(' ')).toContain('JS-1');
  });

  it('gives up on a pathological PDF within the limit and reports pdf_timeout', async () => {
    const bytes = slowTextPdf();
    const r = await extractInvoiceFields({ bytes, filename: 'slow.pdf' }, { ocr: false, limits: { timeoutMs: 300 } });
    expect(r.errors[0]?.code).toMatch(/timeout/);
    // The next document still reads normally.
    const ok = await extractInvoiceFields({ bytes: javascriptPdf(), filename: 'ok.pdf' }, { ocr: false });
    expect(ok.errors).toEqual([]);
    expect(ok.invoice_number).toBe('JS-1');
  });

  it('maps unreadable input to pdf_invalid', async () => {
    await expect(
      readPdfTextIsolated(new TextEncoder().encode('%PDF-1.7 garbage'), pdfLimits(10, 5000)),
    ).rejects.toMatchObject({
      code: 'pdf_invalid',
    });
  });
});
