import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../eval/eval.dataset';
import { flateBombPdf, manyScanJpeg, whitePng, zeroSizePng } from '../../test/extraction/bad-inputs';
import { prewarmDocumentSandbox } from '../sandbox/document-sandbox';
import { extractInvoiceFields as extractInProcess } from './extraction.service';
import {
  closeDocumentSandbox,
  configureDocumentSandbox,
  DEFAULT_SANDBOX_SETTINGS,
  documentSandboxPids,
  extractInvoiceFields,
  publicFields,
} from './index';

const realPdf = path.join(repoRoot(), '..', 'shared', 'datasets', 'invoices-pdf', 'AmazonWebServices.pdf');

afterAll(async () => {
  await configureDocumentSandbox(DEFAULT_SANDBOX_SETTINGS);
});

describe('extraction in the document sandbox', () => {
  it('reads a document in a child process with the same answer as in this process', async () => {
    const bytes = new Uint8Array(readFileSync(realPdf));
    const sandboxed = await extractInvoiceFields({ bytes, filename: 'aws.pdf' });
    expect(documentSandboxPids()).toHaveLength(1);
    expect(documentSandboxPids()).not.toContain(process.pid);
    expect(sandboxed.errors).toEqual([]);
    expect(publicFields(sandboxed)).toEqual(publicFields(await extractInProcess({ bytes, filename: 'aws.pdf' })));
  });

  it('starts a child ahead of the first document when asked, and reads that document in it', async () => {
    await configureDocumentSandbox({ processes: 1 });
    await closeDocumentSandbox();
    expect(documentSandboxPids()).toEqual([]);
    prewarmDocumentSandbox();
    await expect.poll(() => documentSandboxPids(), { timeout: 30_000 }).toHaveLength(1);
    const warmed = documentSandboxPids()[0];
    // A configuration that confirms the child's settings keeps it (the CLI starts it before reading its own).
    await configureDocumentSandbox({ processes: 1, timeoutMs: 45_000 });
    expect(documentSandboxPids()).toEqual([warmed]);
    const r = await extractInvoiceFields({ bytes: new Uint8Array(readFileSync(realPdf)), filename: 'aws.pdf' });
    expect(r.errors).toEqual([]);
    expect(r.amount).toBe(4.11);
    expect(documentSandboxPids()).toEqual([warmed]);
  });

  it('closes a child a prewarm is still starting when the configuration changes, and leaves none running once closed', async () => {
    // This process's sandbox children (a child left behind keeps a CLI command alive until its idle timer).
    const children = () =>
      execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => /child/.test(l)).length;
    await configureDocumentSandbox({ processes: 1 });
    await closeDocumentSandbox();
    // The CLI's order: a prewarm, a configuration that restarts the sandbox, the document, all before a pool exists.
    prewarmDocumentSandbox();
    await configureDocumentSandbox({ processes: 1, memoryMb: 900 });
    const r = await extractInvoiceFields({ bytes: new Uint8Array(readFileSync(realPdf)), filename: 'aws.pdf' });
    expect(r.amount).toBe(4.11);
    expect(documentSandboxPids()).toHaveLength(1);
    await closeDocumentSandbox();
    await configureDocumentSandbox({ memoryMb: DEFAULT_SANDBOX_SETTINGS.memoryMb });
    await expect.poll(children, { timeout: 10_000 }).toBe(0);
  });

  it('refuses the images that crashed the process, from their headers, before any decoder sees them', async () => {
    const zero = await extractInvoiceFields({ bytes: zeroSizePng(), filename: 'zero.png' });
    expect(zero.errors).toEqual([
      { code: 'image_invalid', message: 'The image cannot be read: the PNG is 0 × 0 pixels' },
    ]);
    const scans = await extractInvoiceFields({ bytes: manyScanJpeg(), filename: 'scans.jpg' });
    expect(scans.errors).toEqual([
      { code: 'image_invalid', message: 'The image cannot be read: the JPEG has more than 100 scans' },
    ]);
  });

  it('refuses a flate bomb by what its streams inflate to, without the child growing', async () => {
    await configureDocumentSandbox({ memoryMb: 400 });
    const bomb = flateBombPdf(100);
    const r = await extractInvoiceFields({ bytes: bomb, filename: 'bomb.pdf' });
    expect(r.errors).toEqual([
      { code: 'pdf_too_large', message: 'The PDF is too large to read: its page content inflates to more than 64 MB' },
    ]);
    // A smaller budget stops it sooner, whatever kind of stream it is.
    const strict = await extractInvoiceFields(
      { bytes: bomb, filename: 'bomb.pdf' },
      { limits: { maxInflateBytes: 8 * 1024 * 1024 } },
    );
    expect(strict.errors).toEqual([
      { code: 'pdf_too_large', message: 'The PDF is too large to read: its page content inflates to more than 2 MB' },
    ]);
  }, 120_000);

  it('turns a document that exhausts its child into an error of that document, and goes on with the next', async () => {
    // 7000 × 7000 pixels pass the pixel limit but need far more than 200 MB to decode and scale for OCR.
    const before = documentSandboxPids();
    await configureDocumentSandbox({ memoryMb: 200, processes: 1 });
    // Another memory limit: the children started with the old one are stopped.
    for (const pid of before) expect(documentSandboxPids()).not.toContain(pid);
    const big = await extractInvoiceFields({ bytes: whitePng(7000, 7000), filename: 'big.png' });
    expect(big.errors).toEqual([
      { code: 'document_out_of_memory', message: 'document could not be read: out of memory at 200 MB' },
    ]);
    const next = await extractInvoiceFields({ bytes: new Uint8Array(readFileSync(realPdf)), filename: 'aws.pdf' });
    expect(next.errors).toEqual([]);
    expect(next.vendor).toBe('Amazon Web Services, Inc.');
  }, 120_000);

  it('stops its children when asked', async () => {
    await extractInvoiceFields({ bytes: zeroSizePng(), filename: 'zero.png' });
    const pids = documentSandboxPids();
    expect(pids.length).toBeGreaterThan(0);
    await closeDocumentSandbox();
    expect(documentSandboxPids()).toEqual([]);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
