import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { documentTimeLimit } from './time-limit';

describe("a document's time limit, per OCR'd page", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const outcome = (p: Promise<never>) => {
    const seen: { error?: { code?: string; message: string } } = {};
    p.catch((error) => {
      seen.error = error;
    });
    return seen;
  };

  it('runs out after its limit when no page is read', async () => {
    const limit = documentTimeLimit(1_000, 5_000, () => {});
    const seen = outcome(limit.expired);
    await vi.advanceTimersByTimeAsync(999);
    expect(seen.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.error).toMatchObject({ code: 'timeout', message: 'Extraction took longer than 1000 ms' });
  });

  it('starts again after each page, tells the sandbox, and never runs past its ceiling', async () => {
    const told = vi.fn();
    const limit = documentTimeLimit(1_000, 2_500, told);
    const seen = outcome(limit.expired);
    await vi.advanceTimersByTimeAsync(900);
    limit.pageDone(); // now 900: next limit at 1,900
    await vi.advanceTimersByTimeAsync(900);
    expect(seen.error).toBeUndefined();
    limit.pageDone(); // now 1,800: 2,800 would pass the ceiling, so 2,500
    expect(told).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(699);
    expect(seen.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(seen.error?.message).toBe('Extraction took longer than 2500 ms');
  });

  it('does not fire once cleared', async () => {
    const limit = documentTimeLimit(1_000, 5_000, () => {});
    const seen = outcome(limit.expired);
    limit.clear();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(seen.error).toBeUndefined();
  });
});
