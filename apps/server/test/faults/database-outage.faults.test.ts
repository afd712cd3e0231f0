import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuiltCliIsCurrent } from '../cli-processes';
import { databaseOutageTrial } from './outage-trial';

/**
 * The database stops during an import and comes back 8 s later (`npm run bench -- faults` runs it 50 times): the
 * process stays up, the job completes, every message and invoice is stored once. pg-boss 10's un-awaited `fail()`
 * used to reject with ECONNREFUSED and end the process. Runs a PostgreSQL of its own (never the shared one), so it
 * runs once, with the unit tests, not once per engine.
 */
describe('a database outage during an import', () => {
  beforeAll(async () => {
    await assertBuiltCliIsCurrent();
  });

  it('is ridden out: the process stays up, the job completes, counts exact', { timeout: 180_000 }, async () => {
    const outcome = await databaseOutageTrial({ messages: 150, outageMs: 8000 });
    expect(outcome.detail).toMatch(/^job completed/);
    expect(
      { crashed: outcome.crashed, duplicates: outcome.duplicates, losses: outcome.losses },
      outcome.detail,
    ).toEqual({
      crashed: false,
      duplicates: 0,
      losses: 0,
    });
  });
});
