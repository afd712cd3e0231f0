import path from 'node:path';
import { loadRealWorld } from './real-world.eval';
import { isRealWorld2HeldOut, type RealWorld2Item, validateRealWorld2 } from './real-world-2.dataset';

/**
 * The third real-world corpus (eval/real-world-3, fresh samples 20 and 21, 2026-12: two fresh samples of text-PDF invoices
 * and receipt photos and scans): public documents with hand-checked truth in the schema of eval/real-world-2, loaded
 * with `loadRealWorld(realWorld3Dir)` and scored as its own block by run-eval.ts. Its held-out rule, entry schema and
 * validator are eval/real-world-2's (real-world-2.dataset.ts), applied to this folder.
 */

export const realWorld3Dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'real-world-3');

export const REAL_WORLD_3_LABEL = 'real-world, samples 20 and 21 (2026-12)';

/** An entry as truth.json holds it: the schema of eval/real-world-2. */
export type RealWorld3Item = RealWorld2Item;

/** The corpus through the first corpus' loader, typed with its provenance. */
export const loadRealWorld3 = (dir = realWorld3Dir) =>
  loadRealWorld(dir) as Array<{ file: string; name: string; item: RealWorld3Item }>;

/** The rule of eval/real-world-2: held out when the first byte of the file's SHA-256 is divisible by 3. */
export const isRealWorld3HeldOut = isRealWorld2HeldOut;

/** Everything wrong with one entry (empty when it is sound), by eval/real-world-2's validator. */
export const validateRealWorld3 = (file: string, item: RealWorld3Item, readmeText: string, dir = realWorld3Dir) =>
  validateRealWorld2(file, item, readmeText, dir);
