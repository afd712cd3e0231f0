/**
 * `npm run bench [-- NAME...]`: the benchmarks of the project, one after the other; with names, only those (for
 * example `npm run bench -- hostile faults`). Prints figures, never fails on time. Benchmarks whose names are listed
 * in `ON_REQUEST` run only when asked for by name (they take minutes).
 */
import { runBankBench } from './bank.bench';
import { runBlobsBench } from './blobs.bench';
import { benchDriveUpload } from './drive.bench';
import { runFaultsBench } from './faults.bench';
import { runFaultsEmbeddedBench } from './faults-embedded.bench';
import { runFootprintBench } from './footprint.bench';
import { runForwardingBench } from './forwarding.bench';
import { runFoundationBench } from './foundation.bench';
import { runHostileBench } from './hostile.bench';
import { runInvoicesBench } from './invoices.bench';
import { runJobsBench } from './jobs.bench';
import { runMailSyncBench } from './mail-sync.bench';
import { runMboxScanBench } from './mbox-scan.bench';
import { runReconcileBench } from './reconcile.bench';
import { runScaleBench } from './scale.bench';
import { runUploadBench } from './upload.bench';

const benches: Record<string, { title: string; run: () => Promise<void> }> = {
  foundation: { title: 'Foundation', run: runFoundationBench },
  invoices: { title: 'Invoices', run: runInvoicesBench },
  sync: { title: 'Mail sync (IMAP, local Dovecot)', run: runMailSyncBench },
  scan: { title: 'Mail scan (mbox)', run: runMboxScanBench },
  drive: {
    title: 'Drive upload (WebDAV, local Apache)',
    run: async () => {
      for (const line of await benchDriveUpload()) console.log(line);
    },
  },
  upload: {
    title: 'Adding documents: files per second through upload and through the inbox folder',
    run: runUploadBench,
  },
  forwarding: {
    title: 'Invoice forwarding (local SMTP relay → Dovecot): mails/s, and sync-found → delivered latency',
    run: runForwardingBench,
  },
  bank: { title: 'Bank statements (100,000-row CSV, 1,000-transaction text PDF)', run: runBankBench },
  blobs: {
    title: 'Document stores: put and get of 1,000 documents of 200 KB on the local folder, PostgreSQL and S3',
    run: runBlobsBench,
  },
  footprint: {
    title: 'Footprint: rows and bytes per person and per invoice after a realistic mail import (embedded PostgreSQL)',
    run: runFootprintBench,
  },
  jobs: {
    title: 'Job queue: no-op jobs enqueued and completed per second through JobQueue and pg-boss (embedded PostgreSQL)',
    run: runJobsBench,
  },
  reconcile: { title: 'Reconciliation (10,000 transactions × 10,000 invoices)', run: runReconcileBench },
  hostile: {
    title:
      'Hostile inputs: the corpus through the CLI and a running server (crashes, hangs, clear errors, peak memory)',
    run: runHostileBench,
  },
  scale: {
    title: 'Scale-out: invoice list and stats on 2 API processes, external PostgreSQL, with and without a sync',
    run: runScaleBench,
  },
  'faults-embedded': {
    title: 'Faults on the embedded PostgreSQL: postmaster killed, kill -9 of start (FAULT_TRIALS, default 3)',
    run: runFaultsEmbeddedBench,
  },
  faults: {
    title:
      'Faults: database outages during imports, mail with refused characters, the embedded postmaster killed, kill -9 of start (trials, duplicates, losses, crashes)',
    run: runFaultsBench,
  },
};
const ON_REQUEST = new Set<string>(['scale', 'faults', 'faults-embedded', 'hostile']);

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(benches).filter((name) => !ON_REQUEST.has(name));

console.log('Invoicebox benchmarks');
console.log(`machine: ${(await import('node:os')).cpus().length} cores, Node ${process.version}`);
for (const name of names) {
  console.log(`\n## ${benches[name]!.title}`);
  await benches[name]!.run();
}
