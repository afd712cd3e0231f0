import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractInvoiceFields } from '../index';

/** A local stand-in for an OpenAI-compatible endpoint: POST /v1/chat/completions with a canned JSON answer. */
let server: Server;
let baseURL = '';
let answer: Record<string, unknown> = {};
const requests: Array<{ path: string; body: Record<string, unknown>; auth: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body: JSON.parse(data || '{}'), auth: req.headers.authorization });
      if (answer.__status) {
        res.writeHead(Number(answer.__status), { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'boom' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: 'local',
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(answer) } },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

// Plain text: no total label, so the rules are unsure about the amount and find no invoice number.
const text = new TextEncoder().encode(
  'Acme Widgets Ltd\nStatement for your order\nDate: 2024-05-06\nWidgets  3 x 10.00  30.00 EUR\nVAT  6.00 EUR\n36.00 EUR\nRef A-77\n',
);
const model = () => ({ baseURL, apiKey: 'test-key', model: 'local-model' });

describe('OpenAI-compatible model endpoint', () => {
  it('fills weak fields with validated answers and keeps confident rule fields', async () => {
    answer = {
      vendor: 'Acme Widgets Ltd',
      amount: '36.00',
      currency: 'EUR',
      invoice_date: '2024-05-07',
      invoice_number: 'A-77',
    };
    const r = await extractInvoiceFields({ bytes: text, filename: 'a.txt' }, { model: model() });
    const last = requests.at(-1)!;
    expect(last.path).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer test-key');
    expect(last.body.model).toBe('local-model');
    expect((last.body.response_format as { type: string }).type).toBe('json_schema');
    expect(r.invoice_number).toBe('A-77');
    expect(r.fields.invoice_number?.source).toBe('model');
    expect(r.amount).toBe(36);
    expect(r.amount_minor).toBe(3600);
  });

  it('rejects invalid answers: a total not printed, a bad date, an unknown currency', async () => {
    answer = { vendor: null, amount: '999.99', currency: 'XYZ', invoice_date: '2024-02-31', invoice_number: null };
    const r = await extractInvoiceFields({ bytes: text, filename: 'a.txt' }, { model: model() });
    expect(r.amount).not.toBe(999.99);
    expect(r.currency).toBe('EUR');
    expect(r.invoice_date).toBe('2024-05-06');
    expect(r.warnings.map((w) => w.code)).toContain('model_amount_unverified');
  });

  it('keeps the rules answer with a warning when the endpoint fails', async () => {
    answer = { __status: 500 };
    const r = await extractInvoiceFields({ bytes: text, filename: 'a.txt' }, { model: model() });
    expect(r.errors).toEqual([]);
    expect(r.invoice_date).toBe('2024-05-06');
    expect(r.warnings.map((w) => w.code)).toContain('model_failed');
  });
});
