/**
 * Statement reading, measured: transactions precision/recall (same booking date, amount ±0.01, same type), header
 * accuracy per field and the balance-check pass rate, on
 *   (a) generated PDF statements (statement.generator.ts, families in statement.families.ts): five dev layouts ×
 *       seven languages, one-page scans of them (standard and rough; rendered in a child process, statement.scans.ts),
 *       and the 'holdout' layouts (text and scans) kept out of all tuning and reported apart;
 *   (b) ../shared/datasets/bank (camt.053, MT940, CSV) against their source projects' expected output, and its OFX
 *       files (ofxparse's fixtures) against hand-checked truth (test/bank/ofx-truth.json);
 *   (c) generated OFX 1.02 SGML and 2.x XML files of the dev statements (ofx.generator.ts);
 *   (d) real statement PDFs from public repositories with hand-checked truth (eval/real-statements,
 *       real-statements.eval.ts), its held-out part (a fixed SHA-256 rule) reported apart;
 *   (e) real bank exports and statements (CSV, OFX, camt.053, MT940, PDF) from public repositories with hand-checked
 *       truth (eval/bank-exports, bank-exports.dataset.ts), scored like (d), all formats and each format apart, its
 *       held-out part (round 2, a fixed SHA-256 rule) in the held-out section.
 * Part of `npm run eval`; alone: `npx tsx apps/server/eval/statement.eval.ts [--verbose] [--no-ocr]
 * [--only <family-name substrings, comma-separated>] [--timeout <s>] [--stmt-dir DIR]` (--verbose lists the dev families' errors only,
 * never the held-out ones'; --only skips the structured sets and the real corpora, e.g. `--only 'dev layouts'`
 * for the dev scans alone, and reaches held-out families only through a substring that says 'held out').
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStatementInSandbox as readStatement } from '../src/bank/statement.sandbox';
import type { ParsedStatement, StatementReadResult } from '../src/bank/statement.types';
import {
  bankDatasets,
  camtTruth,
  csvTruth,
  headerScore,
  matchTransactions,
  mt940Truth,
  ofxTruth,
  type TruthTx,
} from '../test/bank/bank-datasets';
import { BANK_EXPORT_FORMATS, loadBankExports } from './bank-exports.dataset';
import { renderPdf } from './invoice.renderers';
import { renderOfx } from './ofx.generator';
import { mergeStatementScores, runRealStatements } from './real-statements.eval';
import { LANGS, type StatementFamily, statementFamilies } from './statement.families';
import { DEV_LAYOUTS, type GeneratedStatement, generateStatement } from './statement.generator';
import { renderScansIsolated } from './statement.scans';
import { newScore, type StatementScore, tallyBalances } from './statement.score';

const HEADER_FIELDS = [
  'bankName',
  'accountNumber',
  'startDate',
  'endDate',
  'currency',
  'openingBalanceMinor',
  'closingBalanceMinor',
] as const;

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)} %`);

export function formatStatementScore(s: StatementScore): string {
  const hr = Object.values(s.headerRight).reduce((a, b) => a + b, 0);
  const ht = Object.values(s.headerTotal).reduce((a, b) => a + b, 0);
  const fields = Object.keys(s.headerTotal)
    .map((k) => `${k} ${pct(s.headerRight[k] ?? 0, s.headerTotal[k]!)}`)
    .join(', ');
  return [
    `${s.name}: ${s.files} files, transactions precision ${pct(s.matched, s.found)} (${s.matched}/${s.found}), recall ${pct(s.matched, s.truth)} (${s.matched}/${s.truth}); balance check passed ${pct(s.balanceOk, s.balanceChecked)} (${s.balanceOk}/${s.balanceChecked}${s.balanceUnchecked ? `, ${s.balanceUnchecked} with no balances to check` : ''}); ${(s.ms / Math.max(s.files, 1)).toFixed(0)} ms/file`,
    ht ? `    header ${pct(hr, ht)}: ${fields}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function scoreBalance(s: StatementScore, r: StatementReadResult) {
  if (r.ok) tallyBalances(s, r.statements);
}

function scoreGenerated(s: StatementScore, g: GeneratedStatement, r: StatementReadResult, ms: number) {
  s.files += 1;
  s.ms += ms;
  const st: ParsedStatement | undefined = r.ok ? r.statements[0] : undefined;
  const ours = st?.transactions ?? [];
  const m = matchTransactions(g.truth.transactions as TruthTx[], ours);
  s.truth += m.truth;
  s.found += m.found;
  s.matched += m.matched;
  if (m.matched < m.truth || m.matched < m.found)
    s.failures.push(
      `${g.id}: ${m.matched} of ${m.truth} truth, ${m.found} found${r.ok ? '' : ` ${r.errors[0]!.code}`}`,
    );
  for (const f of HEADER_FIELDS) {
    s.headerTotal[f] = (s.headerTotal[f] ?? 0) + 1;
    if (st && st[f] === g.truth[f]) s.headerRight[f] = (s.headerRight[f] ?? 0) + 1;
    else s.failures.push(`${g.id}: ${f} got ${JSON.stringify(st?.[f])} want ${JSON.stringify(g.truth[f])}`);
  }
  scoreBalance(s, r);
}

/**
 * Scores one family. Scans are rendered beforehand in a child process (statement.scans.ts: native canvas code, whose
 * crash or memory blow-up then costs this family's score only); text PDFs are drawn here (pdf-lib, plain JS).
 */
export async function runGenerated(name: string, f: StatementFamily): Promise<StatementScore | null> {
  const s = newScore(name);
  const scans = f.scan ? renderScansIsolated(name) : null;
  if (f.scan && !scans) return null;
  for (const [i, g] of f.items.entries()) {
    const bytes = scans ? new Uint8Array(readFileSync(scans[i]!)) : await renderPdf(g);
    const t0 = performance.now();
    const r = await readStatement(bytes, `${g.id}.pdf`);
    scoreGenerated(s, g, r, performance.now() - t0);
  }
  return s;
}

async function runDatasets(): Promise<StatementScore[]> {
  const out: StatementScore[] = [];
  const sets: Array<
    [string, Array<{ file: string; path: string; transactions: TruthTx[]; t: Parameters<typeof headerScore>[0] }>]
  > = [
    ['camt053', camtTruth().map((t) => ({ ...t, path: path.join(bankDatasets, 'camt053', t.file), t }))],
    ['mt940', mt940Truth().map((t) => ({ ...t, path: path.join(bankDatasets, 'mt940', t.file), t }))],
    ['csv', csvTruth().map((t) => ({ ...t, file: t.csv, path: path.join(bankDatasets, 'csv', t.csv), t }))],
    ['ofx', ofxTruth().map((t) => ({ ...t, path: path.join(bankDatasets, 'ofx', t.file), t }))],
  ];
  for (const [name, items] of sets) {
    const s = newScore(`shared datasets/bank ${name}`);
    for (const it of items) {
      const t0 = performance.now();
      const r = await readStatement(new Uint8Array(readFileSync(it.path)), it.file);
      s.ms += performance.now() - t0;
      s.files += 1;
      const sts = r.ok ? r.statements : [];
      const ours = it.t.lastOnly ? (sts.at(-1)?.transactions ?? []) : sts.flatMap((x) => x.transactions);
      const m = matchTransactions(it.transactions, ours);
      s.truth += m.truth;
      s.found += m.found;
      s.matched += m.matched;
      if (m.matched < m.truth || m.matched < m.found)
        s.failures.push(`${name}/${it.file}: ${m.matched} of ${m.truth} truth, ${m.found} found`);
      const h = headerScore(it.t, sts);
      for (const miss of h.misses) s.failures.push(miss);
      s.headerTotal.fields = (s.headerTotal.fields ?? 0) + h.fields;
      s.headerRight.fields = (s.headerRight.fields ?? 0) + h.right;
      scoreBalance(s, r);
    }
    out.push(s);
  }
  return out;
}

/** Generated OFX, both dialects, bank and card statements (ofx.generator.ts); header fields OFX can carry. */
export async function runGeneratedOfx(): Promise<StatementScore[]> {
  const out: StatementScore[] = [];
  for (const dialect of ['sgml', 'xml'] as const) {
    const s = newScore(`OFX generated, ${dialect === 'sgml' ? '1.02 SGML' : '2.x XML'}`);
    for (const [li, layout] of DEV_LAYOUTS.entries()) {
      for (const [gi, lang] of LANGS.entries()) {
        const seed = 3000 + li * 100 + gi * 10 + (dialect === 'xml' ? 1 : 0);
        const o = renderOfx(generateStatement(seed, lang, layout), dialect, seed);
        const t0 = performance.now();
        const r = await readStatement(o.bytes, `${o.id}.ofx`);
        s.ms += performance.now() - t0;
        s.files += 1;
        const st = r.ok ? r.statements[0] : undefined;
        const m = matchTransactions(o.truth.transactions, st?.transactions ?? []);
        s.truth += m.truth;
        s.found += m.found;
        s.matched += m.matched;
        if (m.matched < m.truth || m.matched < m.found)
          s.failures.push(`${o.id}: ${m.matched} of ${m.truth} truth, ${m.found} found`);
        const want = {
          bankName: o.truth.bankName,
          accountNumber: o.truth.localAccount,
          startDate: o.truth.startDate,
          endDate: o.truth.endDate,
          currency: o.truth.currency,
          closingBalanceMinor: o.truth.closingBalanceMinor,
        };
        for (const [f, v] of Object.entries(want)) {
          s.headerTotal[f] = (s.headerTotal[f] ?? 0) + 1;
          if (st && st[f as keyof typeof want] === v) s.headerRight[f] = (s.headerRight[f] ?? 0) + 1;
          else
            s.failures.push(
              `${o.id}: ${f} got ${JSON.stringify(st?.[f as keyof typeof want])} want ${JSON.stringify(v)}`,
            );
        }
        scoreBalance(s, r);
      }
    }
    out.push(s);
  }
  return out;
}

/**
 * The real bank exports (eval/bank-exports) of one split, each format apart (`parts`) and all together (`all`, the one
 * to keep; its failures are the parts' ones).
 */
export async function runBankExports(
  split: 'dev' | 'held-out',
  dir?: string,
): Promise<{ all: StatementScore; parts: StatementScore[] }> {
  const entries = loadBankExports(dir);
  const label = dir ? `statements in ${path.basename(dir)}` : 'real bank exports';
  const parts: StatementScore[] = [];
  for (const format of BANK_EXPORT_FORMATS) {
    const items = entries.filter((e) => e.item.format === format);
    if (!items.some((e) => e.item.split === split)) continue;
    const partLabel = dir ? `  ${format}` : `  bank exports ${format}`;
    parts.push(await runRealStatements(readStatement, split, { load: () => items, label: partLabel }));
  }
  const name = `${label} (${split === 'dev' ? 'dev' : 'held out, never tuned on'})`;
  return { all: mergeStatementScores(name, parts), parts };
}

/**
 * `--stmt-dir DIR`: a folder laid out like eval/bank-exports (files/ and a truth.json in its schema), e.g. a fresh
 * sample or an independent generator's statements kept outside the repository, measured before anything is tuned on
 * it: its dev part (with the single failures under --verbose), then its held-out part (score only).
 */
export async function runStatementDir(dir: string, verbose: boolean): Promise<StatementScore[]> {
  const dev = await runBankExports('dev', dir);
  printBankExports(dev, verbose);
  const held = await runBankExports('held-out', dir);
  printBankExports(held, false);
  return [dev.all, held.all];
}

/** The corpus line, then one per format; the single failures (dev only) once, after them. */
function printBankExports(r: { all: StatementScore; parts: StatementScore[] }, failures: boolean) {
  console.log(formatStatementScore(r.all));
  for (const p of r.parts) console.log(formatStatementScore(p));
  if (failures) for (const x of r.all.failures) console.log(`    ${x}`);
}

export interface StatementEvalOptions {
  verbose?: boolean;
  ocr?: boolean;
  /** Family or set names containing one of these substrings only (e.g. ['scans, dev']). */
  only?: string[];
  /** Time limit per statement in the sandbox (a loaded machine needs more for OCR). */
  timeoutMs?: number;
}

export async function runStatementEval(options: StatementEvalOptions = {}): Promise<StatementScore[]> {
  const scores: StatementScore[] = [];
  const families = statementFamilies();
  const wanted = (name: string) => !options.only || options.only.some((o) => name.includes(o));
  // A filter reaches held-out families only when it names them ('held out'): never by accident.
  const wantedHeld = (name: string) =>
    !options.only || options.only.some((o) => o.includes('held out') && name.includes(o));
  if (options.timeoutMs) {
    const { configureDocumentSandbox } = await import('../src/sandbox/document-sandbox');
    await configureDocumentSandbox({ timeoutMs: options.timeoutMs });
  }
  for (const [name, f] of Object.entries(families)) {
    if (f.heldOut || !wanted(name)) continue;
    if (f.scan && options.ocr === false) continue;
    const s = await runGenerated(name, f);
    if (!s) {
      console.log(`${name}: its scans could not be rendered; left out`);
      continue;
    }
    console.log(formatStatementScore(s));
    if (options.verbose) for (const x of s.failures) console.log(`    ${x}`);
    scores.push(s);
  }
  const structured = options.only
    ? []
    : [...(await runDatasets()), ...(await runGeneratedOfx()), await runRealStatements(readStatement, 'dev')];
  for (const s of structured) {
    console.log(formatStatementScore(s));
    if (options.verbose) for (const x of s.failures) console.log(`    ${x}`);
    scores.push(s);
  }
  // The real bank exports' dev part next to the real statements' dev line.
  if (!options.only) {
    const bankDev = await runBankExports('dev');
    printBankExports(bankDev, options.verbose === true);
    scores.push(bankDev.all);
  }
  // Held out: its score only, never its single failures.
  console.log('held out (never tuned on):');
  const held: StatementScore[] = [];
  for (const [name, f] of Object.entries(families)) {
    if (!f.heldOut || !wantedHeld(name) || (f.scan && options.ocr === false)) continue;
    const s = await runGenerated(name, f);
    if (!s) {
      console.log(`${name}: its scans could not be rendered; left out`);
      continue;
    }
    console.log(formatStatementScore(s));
    held.push(s);
  }
  if (held.length > 1) {
    const all = mergeStatementScores('held out', held);
    console.log(
      `held out, text and scans together: precision ${pct(all.matched, all.found)}, recall ${pct(all.matched, all.truth)}`,
    );
  }
  // The real statements' held-out part after the generated families' combined line, which does not include it.
  scores.push(...held);
  if (!options.only) {
    const realHeld = await runRealStatements(readStatement, 'held-out');
    console.log(formatStatementScore(realHeld));
    scores.push(realHeld);
    // Its score per format only, never its single failures.
    const bankHeld = await runBankExports('held-out');
    printBankExports(bankHeld, false);
    scores.push(bankHeld.all);
  }
  return scores;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (f: string) => (args.includes(f) ? args[args.indexOf(f) + 1] : undefined);
  const dir = flag('--stmt-dir');
  if (dir) {
    if (flag('--timeout')) {
      const { configureDocumentSandbox } = await import('../src/sandbox/document-sandbox');
      await configureDocumentSandbox({ timeoutMs: Number(flag('--timeout')) * 1000 });
    }
    await runStatementDir(path.resolve(dir), args.includes('--verbose'));
  } else
    await runStatementEval({
      verbose: args.includes('--verbose'),
      ocr: !args.includes('--no-ocr'),
      ...(flag('--only') ? { only: flag('--only')!.split(',') } : {}),
      ...(flag('--timeout') ? { timeoutMs: Number(flag('--timeout')) * 1000 } : {}),
    });
  const { closeDocumentSandbox } = await import('../src/sandbox/document-sandbox');
  await closeDocumentSandbox();
}
