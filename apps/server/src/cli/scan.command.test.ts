import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMail, buildMbox, FAKE_PNG, mailDatasets } from '../../test/mail/mail-builder';

/** The real `invoicebox` command, from the bundle that `npm run build` makes (npm test builds first). */
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/invoicebox.js');
const datasets = path.resolve(mailDatasets, '..');

function run(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 110_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Each test starts the CLI, which reads documents in sandbox processes of its own: generous limits for busy machines.
describe('invoicebox scan', { timeout: 120_000 }, () => {
  let dir: string;
  let mbox: string;
  beforeAll(async () => {
    if (!existsSync(path.resolve(path.dirname(bin), '../dist/cli.js'))) {
      throw new Error('apps/server/dist is missing: run `npm run build` first (npm test does)');
    }
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-scan-cli-'));
    mbox = path.join(dir, 'Takeout.mbox');
    const pdf = (file: string) => readFileSync(path.join(datasets, file));
    await fs.writeFile(
      mbox,
      buildMbox(
        [
          buildMail({
            from: 'AWS Billing <billing@aws.example>',
            subject: 'Your AWS invoice',
            messageId: '<aws-1@aws.example>',
            attachments: [
              { filename: 'logo.png', contentType: 'image/png', content: FAKE_PNG, disposition: 'inline' },
              {
                filename: 'invoice.pdf',
                contentType: 'application/pdf',
                content: pdf('invoices-pdf/AmazonWebServices.pdf'),
              },
            ],
          }),
          buildMail({
            from: 'billing@fournisseur.example',
            subject: 'Facture F20260023',
            messageId: '<f-23@fournisseur.example>',
            attachments: [
              {
                filename: 'Facture März.pdf',
                nameStyle: 'rfc2231',
                content: pdf('einvoices/factur-x/invoice_EN16931.pdf'),
              },
            ],
          }),
          buildMail({
            from: 'Acme Newsletter <news@acme.example>',
            subject: 'News',
            attachments: [{ filename: 'invoice.pdf', content: pdf('invoices-pdf/coolblue1.pdf') }],
          }),
        ],
        '\r\n',
      ),
    );
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('prints only the JSON result with --json, fields read from the attachments', () => {
    const { code, stdout } = run(['scan', mbox, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.total_emails).toBe(3);
    expect(result.invoices).toMatchObject([
      {
        message_id: '<aws-1@aws.example>',
        email: 'billing@aws.example',
        vendor: expect.stringMatching(/^Amazon Web Services/),
        amount: 4.11,
        currency: 'USD',
        invoice_date: '2014-08-03',
        invoice_number: '42183017',
        attachments: [
          { filename: 'invoice.pdf', size: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
        ],
      },
      {
        message_id: '<f-23@fournisseur.example>',
        email: 'billing@fournisseur.example',
        vendor: 'LE FOURNISSEUR',
        amount: 104.9,
        currency: 'EUR',
        invoice_date: '2026-01-31',
        invoice_number: 'F20260023',
        attachments: [{ filename: 'Facture März.pdf' }],
      },
    ]);
    expect(result.invoices).toHaveLength(2);
  });

  it('leaves the fields null with --no-extract', () => {
    const { code, stdout } = run(['scan', mbox, '--json', '--no-extract']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).invoices.map((i: { vendor: string; amount: null }) => [i.vendor, i.amount])).toEqual([
      ['AWS Billing', null],
      ['fournisseur.example', null],
    ]);
  });

  it('prints a short summary without --json', () => {
    const { code, stdout } = run(['scan', mbox, '--no-extract']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe('3 emails scanned, 2 look like invoices');
  });

  it('scans the dataset folder', () => {
    const { code, stdout } = run(['scan', mailDatasets, '--json', '--no-extract']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ total_emails: 37 });
  });

  it('fails with one line on stderr for a missing path', () => {
    const missing = path.join(dir, 'nope.mbox');
    const { code, stdout, stderr } = run(['scan', missing, '--json']);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe(`invoicebox: No such file or folder: ${missing}\n`);
  });
});
