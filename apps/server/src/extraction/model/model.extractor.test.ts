import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatCompletionsServer, startChatCompletionsServer } from '../../../test/chat-completions.server';
import { extractInvoiceFields } from '../index';

let endpoint: ChatCompletionsServer;

beforeAll(async () => {
  endpoint = await startChatCompletionsServer();
});

afterAll(async () => {
  await endpoint.close();
});

// Plain text: no total label, so the rules are unsure about the amount and find no invoice number.
const text = new TextEncoder().encode(
  'Acme Widgets Ltd\nStatement for your order\nDate: 2024-05-06\nWidgets  3 x 10.00  30.00 EUR\nVAT  6.00 EUR\n36.00 EUR\nRef A-77\n',
);
const model = () => ({ baseURL: endpoint.baseURL, apiKey: 'test-key', model: 'local-model' });

describe('OpenAI-compatible model endpoint', () => {
  it('fills weak fields with validated answers and keeps confident rule fields', async () => {
    endpoint.respond({
      vendor: 'Acme Widgets Ltd',
      amount: '36.00',
      currency: 'EUR',
      invoice_date: '2024-05-07',
      invoice_number: 'A-77',
    });
    const r = await extractInvoiceFields({ bytes: text, filename: 'a.txt' }, { model: model() });
    const last = endpoint.requests.at(-1)!;
    expect(last.path).toBe('/v1/chat/completions');
    expect(last.authorization).toBe('Bearer test-key');
    expect(last.body.model).toBe('local-model');
    expect((last.body.response_format as { type: string }).type).toBe('json_schema');
    expect(r.invoice_number).toBe('A-77');
    expect(r.fields.invoice_number?.source).toBe('model');
    expect(r.amount).toBe(36);
    expect(r.amount_minor).toBe(3600);
  });

  it('rejects invalid answers: a total not printed, a bad date, an unknown currency', async () => {
    endpoint.respond({
      vendor: null,
      amount: '999.99',
      currency: 'XYZ',
      invoice_date: '2024-02-31',
      invoice_number: null,
    });
    const r = await extractInvoiceFields({ bytes: text, filename: 'a.txt' }, { model: model() });
    expect(r.amount).not.toBe(999.99);
    expect(r.currency).toBe('EUR');
    expect(r.invoice_date).toBe('2024-05-06');
    expect(r.warnings.map((w) => w.code)).toContain('model_amount_unverified');
  });

  it('keeps the rules answer with a warning when the endpoint fails', async () => {
    endpoint.fail(500);
    const r = await extractInvoiceFields({ bytes: text, filename: 'a.txt' }, { model: model() });
    expect(r.errors).toEqual([]);
    expect(r.invoice_date).toBe('2024-05-06');
    expect(r.warnings.map((w) => w.code)).toContain('model_failed');
  });
});
