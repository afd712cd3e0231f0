import path from 'node:path';

/**
 * The third real-world corpus (eval/real-world-3, fresh samples 20 and 21, 2026-12: text-PDF invoices and receipt
 * photos and scans): public documents with hand-checked truth in the schema of eval/real-world-2, scored as its own
 * block by run-eval.ts. Its loader, held-out rule and validator are eval/real-world-2's (real-world-2.dataset.ts:
 * `loadRealWorld2(realWorld3Dir)`, `isRealWorld2HeldOut`, `validateRealWorld2(…, realWorld3Dir)`).
 */

export const realWorld3Dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'real-world-3');

export const REAL_WORLD_3_LABEL = 'real-world, samples 20 and 21 (2026-12)';
