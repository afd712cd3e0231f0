/** `npm run bench`: every benchmark of the project, one after the other. Prints figures, never fails on time. */

import { benchDriveUpload } from './drive.bench';
import { runFoundationBench } from './foundation.bench';
import { runInvoicesBench } from './invoices.bench';
import { runMailSyncBench } from './mail-sync.bench';
import { runMboxScanBench } from './mbox-scan.bench';

console.log('Invoicebox benchmarks');
console.log(`machine: ${(await import('node:os')).cpus().length} cores, Node ${process.version}\n`);
console.log('## Foundation');
await runFoundationBench();
console.log('\n## Invoices');
await runInvoicesBench();
console.log('\n## Mail sync (IMAP, local Dovecot)');
await runMailSyncBench();
console.log('\n## Mail scan (mbox)');
await runMboxScanBench();
console.log('\n## Drive upload (WebDAV, local Apache)');
for (const line of await benchDriveUpload()) console.log(line);
