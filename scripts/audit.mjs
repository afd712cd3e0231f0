// `npm audit --omit=dev` as a gate: fails on a high or critical advisory in a production dependency unless
// audit-allowlist.json lists it with a reason and an expiry date that has not passed. When the registry's audit
// service cannot be reached (this workplace's registry answers only GET), it says so loudly and does not fail,
// unless AUDIT_REQUIRED=1, for a CI that can reach it and must never skip the check.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BLOCKING = new Set(['high', 'critical']);

/** The advisories behind an `npm audit --json` report (version 2), one per advisory and package. */
export function advisories(report) {
  const found = new Map();
  for (const vulnerability of Object.values(report.vulnerabilities ?? {})) {
    for (const via of vulnerability.via ?? []) {
      if (typeof via !== 'object' || via === null) continue; // a name: reached through another package, listed there
      const id = /GHSA-[\w-]+/i.exec(String(via.url ?? ''))?.[0] ?? String(via.source ?? via.url ?? via.title);
      found.set(`${id} ${via.name}`, {
        id,
        package: via.name,
        severity: via.severity,
        title: via.title,
        url: via.url,
        range: via.range,
      });
    }
  }
  return [...found.values()];
}

/**
 * Decides from a report and the allow-list. `today` is an ISO date (YYYY-MM-DD). An entry allows an advisory by id
 * (for every package) or by id and package; it expires at the end of its `expires` day.
 */
export function evaluate(report, allowlist, today) {
  const problems = [];
  const notes = [];
  const used = new Set();
  for (const advisory of advisories(report)) {
    if (!BLOCKING.has(advisory.severity)) continue;
    const entry = allowlist.find(
      (e) => e.id.toLowerCase() === advisory.id.toLowerCase() && (!e.package || e.package === advisory.package),
    );
    const what = `${advisory.severity} ${advisory.id} in ${advisory.package} ${advisory.range ?? ''}: ${advisory.title} (${advisory.url})`;
    if (!entry) problems.push(what);
    else if (entry.expires < today) problems.push(`${what}; its allow-list entry expired on ${entry.expires}`);
    else {
      used.add(entry);
      notes.push(`allowed until ${entry.expires}: ${what} (${entry.reason})`);
    }
  }
  for (const entry of allowlist) {
    if (!used.has(entry)) notes.push(`allow-list entry ${entry.id} matches nothing any more: remove it`);
  }
  return { problems, notes };
}

/** Checks the allow-list's shape: every entry needs an id, a reason and an expiry date. */
export function readAllowlist(file) {
  const entries = JSON.parse(readFileSync(file, 'utf8')).allow ?? [];
  for (const e of entries) {
    if (typeof e.id !== 'string' || typeof e.reason !== 'string' || !e.reason.trim()) {
      throw new Error(`${file}: every entry needs "id" and a "reason": ${JSON.stringify(e)}`);
    }
    if (typeof e.expires !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(e.expires)) {
      throw new Error(`${file}: "expires" must be a date (YYYY-MM-DD): ${JSON.stringify(e)}`);
    }
  }
  return entries;
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const allowlist = readAllowlist(path.join(root, 'audit-allowlist.json'));
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json', '--fetch-timeout=30000', '--fetch-retries=1'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  if (!report || report.auditReportVersion === undefined) {
    const why =
      report?.message ?? report?.error?.summary ?? run.error?.message ?? run.stderr.trim().split('\n').at(-1) ?? '';
    const text = `npm audit NOT RUN: the registry's audit service did not answer (${why})`;
    if (process.env.AUDIT_REQUIRED === '1') {
      console.error(`${text}; AUDIT_REQUIRED=1 makes that a failure`);
      process.exit(1);
    }
    console.warn(`WARNING: ${text}. Production dependencies were not checked for advisories.`);
    return;
  }
  const { problems, notes } = evaluate(report, allowlist, new Date().toISOString().slice(0, 10));
  for (const note of notes) console.warn(note);
  const counts = report.metadata?.vulnerabilities ?? {};
  if (problems.length) {
    console.error(`npm audit --omit=dev: ${problems.length} high or critical advisories not allowed:`);
    for (const problem of problems) console.error(`  ${problem}`);
    console.error('Upgrade the dependency, or add it to audit-allowlist.json with a reason and an expiry date.');
    process.exit(1);
  }
  console.warn(
    `npm audit --omit=dev: no high or critical advisory outside the allow-list (${counts.total ?? 0} in all: ` +
      `${counts.critical ?? 0} critical, ${counts.high ?? 0} high, ${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low)`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
