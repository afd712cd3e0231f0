import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuiltCliIsCurrent } from '../cli-processes';
import { useTestDatabase } from '../db';
import { type HostileItem, hostileCorpus, hostileSample, prepareCorpus } from './corpus';
import { type HostileRun, runHostile, summarize } from './harness';

/**
 * A fast, representative sample of the hostile-input corpus (issue 12) through the built CLI (`extract`, `scan`,
 * `statement`) and a running `invoicebox start` on loopback (mail upload and import job, Takeout .zip, bank
 * statements, JSON API): every process stays alive, every bad item gets a clear error, nothing is written outside the
 * processes' folders, the valid invoices around the hostile ones are stored, and no process tree passes 1 GB.
 * The whole corpus runs in `npm run bench -- hostile`.
 *
 * Runs on the embedded engine only (vitest.config.ts): what it tests is the readers and the sandbox; the database
 * only stores the batch.
 */
const t = useTestDatabase();

/** Each kind of attack once, among them those that took the server down before the sandbox. */
const NAMED = [
  'pdf/valid-control',
  'pdf/truncated-20',
  'pdf/corrupted-7',
  'pdf/loop-pages-kids-self',
  'pdf/loop-form-xobject',
  'pdf/nesting-arrays',
  'pdf/nesting-page-tree',
  'pdf/bomb-content-256mb',
  'pdf/bomb-double-flate',
  'pdf/bomb-font-file2',
  'pdf/bomb-embedded-xml',
  'pdf/encrypted-rc4',
  'pdf/javascript-openaction',
  'pdf/pages-count-claims-1e9',
  'pdf/image-30000-gray-bomb',
  'pdf/image-30000-jpeg',
  'pdf/embedded-billion-laughs',
  'image/valid-png-control',
  'image/png-zero-both',
  'image/png-header-30000',
  'image/png-bomb-30000',
  'image/jpeg-scans-5000',
  'image/jpeg-truncated-12',
  'xml/xxe',
  'xml/billion-laughs',
  'xml/nesting-10k',
  'mime/unterminated-boundary',
  'mime/parts-10000',
  'mime/rfc822-depth-100',
  'mime/header-line-5mb',
  'mime/base64-invalid',
  'mime/charset-xunknown',
  'mime/rfc2047-subject-0',
  'mime/rfc2231-0',
  'filename/dotdot-plain',
  'filename/nul-rfc2231',
  'filename/rtl-override-rfc2047',
  'filename/long-4000-plain',
  'filename/nul-statement-upload',
  'archive/valid-control',
  'archive/name-____________tmp_invoicebox_hos',
  'archive/name-_tmp_invoicebox_hostile_zip_ab',
  'archive/symlink-etc-passwd',
  'archive/bomb-1gb',
  'archive/bomb-1gb-size-lies',
  'csv/valid-control',
  'csv/mixed-encodings',
  'csv/nul-bytes',
  'api/auth-local-signin/json-nul-raw',
  'api/bank-statements-upload/type-file_data-2',
  'api/bank-statements-upload/huge-60mb',
  'api/settings-preferences/deep-10k',
  'api/gmail-accounts-imap/inject-host-0',
];

/** Also through `invoicebox extract`, one process each. */
const EXTRACT = [
  'pdf/truncated-20',
  'pdf/bomb-content-256mb',
  'pdf/image-30000-gray-bomb',
  'image/png-zero-both',
  'image/jpeg-scans-5000',
  'image/png-bomb-30000',
  'xml/billion-laughs',
];

describe('the hostile-input corpus, a sample through the CLI and a running server', () => {
  let sample: HostileItem[];
  let run: HostileRun;

  beforeAll(async () => {
    await assertBuiltCliIsCurrent();
    await prepareCorpus();
    const all = hostileCorpus();
    expect(all.length).toBeGreaterThan(1000);
    sample = hostileSample(all, NAMED, 2);
    run = await runHostile(sample, {
      extract: sample.filter((item) => EXTRACT.includes(item.id)),
      databaseUrl: t().url,
      env: { DOCUMENT_TIMEOUT_SECONDS: '30', LOG_LEVEL: 'error', SANDBOX_PROCESSES: '1' },
      deadlineMs: 60_000,
    });
  }, 600_000);

  afterAll(() => {
    if (run)
      console.log(JSON.stringify({ ...summarize(run.outcomes), cliPeak: run.cliPeak, serverPeak: run.serverPeak }));
  });

  it('covers every category and route', () => {
    expect(new Set(sample.map((i) => i.category)).size).toBe(8);
    expect(Object.keys(summarize(run.outcomes).byRoute).sort()).toEqual([
      'cli-extract',
      'cli-scan',
      'cli-statement',
      'server-api',
      'server-mail',
      'server-statement',
      'server-zip',
    ]);
  });

  it('crashes and hangs nothing, and gives every refused item a clear error', () => {
    const bad = run.outcomes.filter((o) => o.verdict !== 'ok' && o.verdict !== 'clear_error');
    expect(bad).toEqual([]);
    expect(run.serverAliveAtEnd).toBe(true);
    expect(run.serverRestarts).toBe(0);
    // The bombs were refused, not read.
    const refused = (id: string) => run.outcomes.filter((o) => o.id === id).map((o) => o.verdict);
    expect(refused('pdf/bomb-content-256mb')).toEqual(['clear_error', 'clear_error', 'clear_error']);
    expect(refused('image/png-zero-both')).toEqual(['clear_error', 'clear_error', 'clear_error']);
    expect(refused('archive/bomb-1gb')).toEqual(['clear_error']);
  });

  it('writes nothing outside the processes’ own folders', () => {
    expect(run.escaped).toEqual([]);
    expect(run.stray).toEqual([]);
  });

  it('stays under 1 GB of resident memory, server and sandbox children together', () => {
    expect(run.serverPeak).toBeGreaterThan(0);
    expect(run.serverPeak).toBeLessThan(1024 * 1024 * 1024);
    expect(run.cliPeak).toBeLessThan(1024 * 1024 * 1024);
  });
});
