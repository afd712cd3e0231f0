import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InvoiceListQuerySchema } from '@invoicebox/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatCompletionsServer } from '../../test/chat-completions.server';
import { useTestDatabase } from '../../test/db';
import { whitePng } from '../../test/extraction/bad-inputs';
import { buildMail } from '../../test/mail/mail-builder';
import { AccountsRepository } from '../accounts/accounts.repository';
import { AccountsService } from '../accounts/accounts.service';
import { users } from '../db/schema';
import type { ExtractionResult } from '../extraction/extraction.types';
import {
  closeDocumentSandbox,
  configureDocumentSandbox,
  DEFAULT_SANDBOX_SETTINGS,
  extractInvoiceFields,
} from '../extraction/index';
import { DocumentUnreadableError } from '../mail/field-extractor';
import type { RawMail } from '../mail/mail-message';
import { LocalBlobStore } from './blob.store';
import { DocumentReader } from './document-reader';
import { IngestService } from './ingest.service';
import { InvoicesService } from './invoices.service';
import { documentReadFailures } from './invoices.tables';

const t = useTestDatabase();

const failed = (code: string, message: string): ExtractionResult => ({
  vendor: null,
  amount: null,
  currency: null,
  invoice_date: null,
  invoice_number: null,
  amount_minor: null,
  document_type: null,
  fields: {},
  errors: [{ code, message }],
  warnings: [],
  meta: { kind: 'unknown', pages: 0, ms: 1 },
});

async function newOwner(email: string): Promise<string> {
  const [owner] = await t().database.db.insert(users).values({ email, displayName: email }).returning();
  return owner!.id;
}

describe('reading documents for the invoice store', () => {
  it('remembers a document that ended its sandbox and does not read it again with the same rules', async () => {
    const { db } = t().database;
    const [alice, bob] = [await newOwner('alice@example.com'), await newOwner('bob@example.com')];
    let calls = 0;
    const crash = async () => {
      calls += 1;
      return failed('document_crashed', 'document could not be read: the reader crashed (SIGSEGV)');
    };
    const reader = new DocumentReader(db, {}, crash, 7);
    const input = { bytes: new Uint8Array([1]), filename: 'x.png', sha256: 'a'.repeat(64) };
    const expected = { code: 'document_crashed', message: 'document could not be read: the reader crashed (SIGSEGV)' };
    await expect(reader.extract({ ...input, ownerId: alice })).rejects.toMatchObject(expected);
    await expect(reader.extract({ ...input, ownerId: alice })).rejects.toBeInstanceOf(DocumentUnreadableError);
    expect(calls).toBe(1);
    // Another person's copy is that person's own: read (and remembered) separately.
    await expect(reader.extract({ ...input, ownerId: bob })).rejects.toMatchObject(expected);
    expect(calls).toBe(2);
    // Newer rules try once more.
    await expect(new DocumentReader(db, {}, crash, 8).extract({ ...input, ownerId: alice })).rejects.toMatchObject(
      expected,
    );
    expect(calls).toBe(3);
  });

  it('reports an ordinary unreadable file without remembering it', async () => {
    const { db } = t().database;
    const owner = await newOwner('carol@example.com');
    let calls = 0;
    const reader = new DocumentReader(db, {}, async () => {
      calls += 1;
      return failed('pdf_encrypted', 'The PDF is password-protected');
    });
    const input = { bytes: new Uint8Array([1]), filename: 'x.pdf', sha256: 'b'.repeat(64), ownerId: owner };
    await expect(reader.extract(input)).rejects.toMatchObject({ code: 'pdf_encrypted' });
    await expect(reader.extract(input)).rejects.toMatchObject({ code: 'pdf_encrypted' });
    expect(calls).toBe(2);
    expect(await db.select().from(documentReadFailures)).not.toContainEqual(
      expect.objectContaining({ ownerId: owner }),
    );
  });
});

describe('a mailbox with a document that exhausts its reader', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'invoicebox-blobs-'));
    // 7000 × 7000 pixels need far more than 200 MB to decode for OCR: the sandbox's child runs out of memory.
    await configureDocumentSandbox({ memoryMb: 200, processes: 1 });
  });
  afterAll(async () => {
    await configureDocumentSandbox(DEFAULT_SANDBOX_SETTINGS);
    await closeDocumentSandbox();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('stores the rest of the batch, shows why on the attachment, and skips the document on the next run', async () => {
    const { db } = t().database;
    const owner = await newOwner('dave@example.com');
    const accounts = new AccountsService(new AccountsRepository(db));
    const account = (await accounts.connect(owner, { provider: 'mbox', email: 'dave@example.com' })).userId;
    const reads: string[] = [];
    const controller = new AbortController();
    const reader = new DocumentReader(db, {}, async (input, options) => {
      reads.push(input.filename);
      const result = await extractInvoiceFields(input, options);
      // The first run's job dies right after its first document (a deploy, a lost worker): nothing is committed.
      controller.abort();
      return result;
    });
    const blobs = new LocalBlobStore(dir);
    const ingest = new IngestService(db, blobs, reader);
    const text = 'Invoice INV-77 from Example Supplies Ltd, total due EUR 42.00, date 2026-10-01';
    const mails = [
      buildMail({
        messageId: '<big@x>',
        subject: 'Invoice scan',
        attachments: [{ filename: 'scan.png', contentType: 'image/png', content: Buffer.from(whitePng(7000, 7000)) }],
      }),
      buildMail({
        messageId: '<txt@x>',
        subject: 'Invoice INV-77',
        attachments: [{ filename: 'invoice.txt', contentType: 'text/plain', content: text }],
      }),
    ];
    async function* source(): AsyncGenerator<RawMail> {
      for (const [i, m] of mails.entries()) yield { ok: true, origin: `mbox#${i}`, source: m };
    }
    await expect(ingest.ingest(owner, account, source(), { signal: controller.signal })).rejects.toThrow();
    expect(reads).toContain('scan.png');

    // The job runs again: the document that exhausted its reader is not fed to one again.
    const done = await ingest.ingest(owner, account, source());
    expect(done).toMatchObject({ seen: 2, added: 2, invoices: 2 });
    expect(reads.filter((name) => name === 'scan.png')).toHaveLength(1);
    const list = await new InvoicesService(db, accounts, blobs).list(owner, InvoiceListQuerySchema.parse({}));
    const scan = list.invoices.find((i) => i.details === 'Invoice scan')!;
    expect(scan.attachments[0]).toMatchObject({
      filename: 'scan.png',
      read_error: 'document could not be read: out of memory at 200 MB',
    });
    const other = list.invoices.find((i) => i.details === 'Invoice INV-77')!;
    expect(other.attachments[0]!.read_error).toBeNull();
    expect(other.amount).toBe('€42.00');
  }, 180_000);

  it("asks the operator's model endpoint, inside the sandbox, where the rules are unsure", async () => {
    const { db } = t().database;
    const endpoint = await startChatCompletionsServer({
      vendor: null,
      amount: '36.00',
      currency: 'EUR',
      invoice_date: null,
      invoice_number: 'A-77',
    });
    const requests = () => endpoint.requests.map((r) => `${r.method} ${r.path} ${r.authorization}`);
    try {
      const baseURL = endpoint.baseURL;
      const reader = new DocumentReader(db, { model: { baseURL, apiKey: 'operator-key', model: 'local-model' } });
      // No total label and no invoice number: the rules alone leave the number empty.
      const text =
        'Acme Widgets Ltd\nStatement for your order\nDate: 2024-05-06\nWidgets  3 x 10.00  30.00 EUR\nVAT  6.00 EUR\n36.00 EUR\nRef A-77\n';
      const fields = await reader.extract({ bytes: new TextEncoder().encode(text), filename: 'order.txt' });
      expect(requests()).toEqual(['POST /v1/chat/completions Bearer operator-key']);
      expect(fields).toMatchObject({ invoice_number: 'A-77', amount: 36 });
      const withoutModel = await new DocumentReader(db, {}).extract({
        bytes: new TextEncoder().encode(text),
        filename: 'order.txt',
      });
      expect(withoutModel?.invoice_number).toBeNull();
      expect(requests()).toHaveLength(1);
    } finally {
      await endpoint.close();
    }
  });
});
