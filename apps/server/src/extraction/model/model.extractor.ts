import type { Canvas } from '@napi-rs/canvas';
import type { ExtractionResult, FieldName, Line, ModelEndpointOptions } from '../extraction.types';
import { isIsoDate } from '../rules/date.parser';
import { currencyDecimals, findAmounts, KNOWN_CURRENCIES, parseXmlDecimal } from '../rules/money.parser';
import { askModelJson } from './model.client';

/**
 * Optional OpenAI-compatible model (chat completions with a JSON-schema answer), asked only when a rule answer is
 * missing or unsure. Its answer is validated (amount parses, date is a real date, currency is ISO 4217, the total
 * appears among the document's printed amounts) and replaces a rule answer only where it is more confident.
 * Any failure of the endpoint leaves the rules' answer and adds a warning.
 */

/** Rule answers at or above this confidence are not sent for a second opinion. */
export const MODEL_THRESHOLD = 0.85;

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['vendor', 'amount', 'currency', 'invoice_date', 'invoice_number'],
  properties: {
    vendor: { type: ['string', 'null'], description: 'legal name of the company that issued the invoice (seller)' },
    amount: {
      type: ['string', 'null'],
      description: 'grand total including VAT as a plain decimal, e.g. "1234.56" (not subtotal, VAT, deposit)',
    },
    currency: { type: ['string', 'null'], description: 'ISO 4217 code, e.g. EUR' },
    invoice_date: { type: ['string', 'null'], description: 'issue date as YYYY-MM-DD (not due/order/delivery date)' },
    invoice_number: { type: ['string', 'null'], description: 'invoice number (not customer, order or VAT number)' },
  },
} as const;

const PROMPT =
  'Extract the invoice fields from this document. Answer with JSON only. Use null for anything not printed on the document.';

interface ModelAnswer {
  vendor?: unknown;
  amount?: unknown;
  currency?: unknown;
  invoice_date?: unknown;
  invoice_number?: unknown;
}

function weakFields(result: ExtractionResult): FieldName[] {
  const names: FieldName[] = ['vendor', 'amount', 'currency', 'invoice_date', 'invoice_number'];
  return names.filter((n) => (result.fields[n]?.confidence ?? 0) < MODEL_THRESHOLD);
}

export async function improveWithModel(
  result: ExtractionResult,
  lines: Line[],
  options: ModelEndpointOptions,
  images: Array<() => Promise<Canvas>>,
): Promise<void> {
  const weak = weakFields(result);
  if (!weak.length) return;
  const text = lines
    .map((l) => l.cells.map((c) => c.text).join('   '))
    .join('\n')
    .slice(0, 24_000);
  let answer: ModelAnswer;
  try {
    answer = await ask(options, text, images);
  } catch (error) {
    result.warnings.push({
      code: 'model_failed',
      message: `Model endpoint: ${error instanceof Error ? error.message : String(error)}`,
    });
    return;
  }
  applyAnswer(result, answer, text, weak);
}

async function ask(
  options: ModelEndpointOptions,
  text: string,
  images: Array<() => Promise<Canvas>>,
): Promise<ModelAnswer> {
  const imageUrls: string[] = [];
  if (options.vision && images.length && text.trim().length < 200) {
    const png = await (await images[0]!()).encode('png');
    imageUrls.push(`data:image/png;base64,${Buffer.from(png).toString('base64')}`);
  }
  return (await askModelJson(options, {
    system: 'You read invoices and answer with JSON that matches the given schema.',
    prompt: `${PROMPT}\n\n${text}`,
    schemaName: 'invoice_fields',
    schema: SCHEMA as unknown as Record<string, unknown>,
    imageUrls,
  })) as ModelAnswer;
}

/** Validates each field of the model's answer and takes it where the rules were missing or less sure. */
export function applyAnswer(result: ExtractionResult, answer: ModelAnswer, text: string, weak: FieldName[]): void {
  const take = (name: FieldName, value: unknown, confidence: number) => {
    if (!weak.includes(name)) return;
    if ((result.fields[name]?.confidence ?? 0) >= confidence) return;
    (result as unknown as Record<string, unknown>)[name] = value;
    result.fields[name] = { source: 'model', confidence };
  };
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const vendor = str(answer.vendor);
  if (vendor && vendor.length <= 120) take('vendor', vendor, text.includes(vendor) ? 0.8 : 0.6);
  const currency = str(answer.currency)?.toUpperCase() ?? null;
  if (currency && KNOWN_CURRENCIES.has(currency)) take('currency', currency, 0.75);
  const date = str(answer.invoice_date);
  if (date && isIsoDate(date)) take('invoice_date', date, 0.75);
  const number = str(answer.invoice_number);
  if (number && number.length <= 60) take('invoice_number', number, text.includes(number) ? 0.8 : 0.5);
  const amountText = typeof answer.amount === 'number' ? String(answer.amount) : str(answer.amount);
  const cur = result.currency ?? currency;
  const decimals = currencyDecimals(cur);
  const minor = amountText ? parseXmlDecimal(amountText.replace(/[^\d.-]/g, ''), decimals) : null;
  if (minor !== null) {
    // Consistent with the text: the same amount is printed somewhere on the document.
    const printed = text
      .split('\n')
      .some((line) => findAmounts(line, { allowIntegers: true }).some((a) => Math.abs(a.minor) === Math.abs(minor)));
    if (printed) {
      const before = result.fields.amount;
      take('amount', minor / 10 ** decimals, 0.8);
      if (result.fields.amount !== before) result.amount_minor = minor;
    } else {
      result.warnings.push({
        code: 'model_amount_unverified',
        message: 'The model gave a total not printed on the document',
      });
    }
  }
}
