/** `npm run bench`: every benchmark of the project, one after the other. Prints figures, never fails on time. */
import { runFoundationBench } from './foundation.bench';
import { runInvoicesBench } from './invoices.bench';

console.log('Invoicebox benchmarks');
console.log(`machine: ${(await import('node:os')).cpus().length} cores, Node ${process.version}\n`);
console.log('## Foundation');
await runFoundationBench();
console.log('\n## Invoices');
await runInvoicesBench();
