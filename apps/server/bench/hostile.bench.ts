/**
 * `npm run bench -- hostile`: the whole hostile-input corpus (test/hostile/corpus.ts, over a thousand items) through
 * the CLI (`extract`, `scan`, `statement`) and a running server (mail upload and import, Takeout .zip, bank
 * statements, JSON API) with its embedded PostgreSQL. Prints counts — items, crashes, hangs, clear errors — and the
 * peak resident memory; the goal is 0 crashes, 0 hangs and a peak under 1 GB. Needs the built CLI (`npm run build`).
 *
 * HOSTILE_ONLY=pdf,image limits the categories; HOSTILE_EXTRACT_EVERY=n sends every n-th document (and every heavy
 * one) through `invoicebox extract` as well (default 3: one process per file costs seconds).
 */
import { hostileCorpus, prepareCorpus } from '../test/hostile/corpus';
import { runHostile, summarize } from '../test/hostile/harness';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function runHostileBench(): Promise<void> {
  await prepareCorpus();
  const only = process.env.HOSTILE_ONLY?.split(',').filter(Boolean);
  const items = hostileCorpus().filter((i) => !only || only.includes(i.category));
  const every = Number(process.env.HOSTILE_EXTRACT_EVERY ?? 3);
  const documents = items.filter((i) => i.channel === 'document');
  const extract = documents.filter((item, index) => item.heavy || index % every === 0);
  console.log(`corpus: ${items.length} items (${extract.length} also through invoicebox extract)`);
  const started = Date.now();
  const run = await runHostile(items, {
    extract,
    env: { DOCUMENT_TIMEOUT_SECONDS: '30', LOG_LEVEL: 'error' },
    deadlineMs: 90_000,
    concurrency: 2,
    log: (line) => console.log(`  ${line}`),
  });
  const summary = summarize(run.outcomes);
  const v = summary.verdicts;
  console.log(
    `items ${summary.items}, runs ${summary.runs} (an item goes through every route that takes it) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(
    `crashes ${v.crash}, hangs ${v.hang}, clear errors ${v.clear_error}, read fine ${v.ok}, unclear errors ${v.unclear_error}`,
  );
  console.log(
    `peak memory: server and its sandbox children ${mb(run.serverPeak)}, one CLI run ${mb(run.cliPeak)}, largest single process ${mb(run.processPeak)}`,
  );
  console.log(
    `server alive at the end: ${run.serverAliveAtEnd ? 'yes' : 'NO'}, died and restarted during the run: ${run.serverRestarts}; files written outside their folders: ${run.escaped.length + run.stray.length}`,
  );
  for (const [route, counts] of Object.entries(summary.byRoute)) {
    console.log(`  ${route.padEnd(17)} ${JSON.stringify(counts)}`);
  }
  for (const [category, counts] of Object.entries(summary.byCategory)) {
    console.log(`  ${category.padEnd(17)} ${JSON.stringify(counts)}`);
  }
  const bad = run.outcomes.filter((o) => o.verdict !== 'ok' && o.verdict !== 'clear_error');
  for (const o of bad.slice(0, 60))
    console.log(`  ${o.verdict.padEnd(13)} ${o.route.padEnd(16)} ${o.id}: ${o.detail.slice(0, 160)}`);
  if (bad.length > 60) console.log(`  … and ${bad.length - 60} more`);
  for (const path of [...run.escaped, ...run.stray]) console.log(`  written outside: ${path}`);
}
