import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPdf } from '../../eval/invoice.renderers';
import { type GeneratedStatement, generateStatement } from '../../eval/statement.generator';
import { type ChatCompletionsServer, startChatCompletionsServer } from '../../test/chat-completions.server';
import { terminatePdfWorker } from '../extraction/pdf/pdf.isolate';
import { ALL_READERS, readStatement } from './statement-registry';

let endpoint: ChatCompletionsServer;

beforeAll(async () => {
  endpoint = await startChatCompletionsServer();
});

afterAll(async () => {
  await endpoint.close();
  await terminatePdfWorker();
});

const dec = (minor: number) => (minor / 100).toFixed(2);

/** The generator's own truth as a model would answer it (signed amounts, no running balances). */
function truthAnswer(g: GeneratedStatement, change: (rows: Array<Record<string, unknown>>) => void = () => {}) {
  const rows: Array<Record<string, unknown>> = g.truth.transactions.map((t) => ({
    date: t.date,
    description: t.description,
    amount: dec(t.type === 'debit' ? -t.amountMinor : t.amountMinor),
    balance: null,
  }));
  change(rows);
  return {
    currency: g.truth.currency,
    opening_balance: dec(g.truth.openingBalanceMinor),
    closing_balance: dec(g.truth.closingBalanceMinor),
    transactions: rows,
  };
}

/** A signed-column statement whose second row's amount is smudged: the rules lose that row and the sums break. */
async function smudged(): Promise<{ g: GeneratedStatement; pdf: Uint8Array }> {
  const g = generateStatement(93_000, 'en', 'signed', 6);
  const rowY = [...new Set(g.runs.filter((r) => /^\d{2}\/\d{2}\/\d{4}$/.test(r.text)).map((r) => r.y))];
  const runs = g.runs.map((r) => (r.y === rowY[1] && r.align === 'right' ? { ...r, text: '#,##' } : r));
  return { g, pdf: await renderPdf({ ...g, runs }) };
}

const read = async (pdf: Uint8Array, withModel = true) => {
  const r = await readStatement(
    pdf,
    'statement.pdf',
    ALL_READERS,
    withModel ? { model: { baseURL: endpoint.baseURL, apiKey: 'test-key', model: 'local-model' } } : {},
  );
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.statements[0]!;
};

describe('statement reading with the optional model endpoint', () => {
  it('takes the model reading when the rules do not add up and the model passes the balance check', async () => {
    const { g, pdf } = await smudged();
    const rules = await read(pdf, false);
    expect(rules.transactions).toHaveLength(5);
    expect(rules.warnings.map((w) => w.code)).toContain('balance_mismatch');
    endpoint.respond(truthAnswer(g));
    const before = endpoint.requests.length;
    const st = await read(pdf);
    expect(endpoint.requests.length).toBe(before + 1);
    expect(endpoint.requests.at(-1)!.path).toBe('/v1/chat/completions');
    expect((endpoint.requests.at(-1)!.body.response_format as { json_schema: { name: string } }).json_schema.name).toBe(
      'bank_statement',
    );
    expect(st.transactions.map((t) => [t.date, t.amountMinor, t.type])).toEqual(
      g.truth.transactions.map((t) => [t.date, t.amountMinor, t.type]),
    );
    expect(st.warnings).toEqual([]);
    // The header the rules read stays.
    expect(st.accountNumber).toBe(g.truth.accountNumber);
  });

  it('keeps the rules reading when the model answer fails the balance check, saying so', async () => {
    const { g, pdf } = await smudged();
    // One invented row: the model's own sums no longer reach the closing balance.
    endpoint.respond(
      truthAnswer(g, (rows) => rows.push({ date: g.truth.endDate, description: 'x', amount: '-1.00', balance: null })),
    );
    const st = await read(pdf);
    expect(st.transactions).toHaveLength(5);
    // The rules' own balance_mismatch is added by the registry after the reader's notes.
    expect(st.warnings.map((w) => w.code)).toEqual(['model_rejected', 'balance_mismatch']);
    expect(st.warnings[0]!.message).toMatch(/balance check/);
    // Its own closing balance moved to fit its rows: the printed one wins.
    endpoint.respond({
      ...truthAnswer(g, (rows) => rows.splice(1, 1)),
      closing_balance: dec(
        g.truth.closingBalanceMinor -
          (g.truth.transactions[1]!.type === 'debit' ? -1 : 1) * g.truth.transactions[1]!.amountMinor,
      ),
    });
    const moved = await read(pdf);
    expect(moved.transactions).toHaveLength(5);
    expect(moved.warnings[0]).toMatchObject({ code: 'model_rejected', message: expect.stringMatching(/closing/) });
  });

  it('does not ask the model when the rules reading adds up, and keeps it when the endpoint fails', async () => {
    const g = generateStatement(93_001, 'de', 'debit-credit', 6);
    const before = endpoint.requests.length;
    const fine = await read(await renderPdf(g));
    expect(endpoint.requests.length).toBe(before);
    expect(fine.warnings).toEqual([]);
    endpoint.fail(500);
    const { pdf } = await smudged();
    const st = await read(pdf);
    expect(st.transactions).toHaveLength(5);
    expect(st.warnings.map((w) => w.code)).toEqual(['model_failed', 'balance_mismatch']);
  });
});
