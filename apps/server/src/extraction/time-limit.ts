import { reportSandboxProgress } from '../sandbox/progress';

/**
 * The document's time limit. Each OCR'd page starts it again (a scanned page costs seconds, a four-page scan would
 * not fit one limit on a busy machine), within a ceiling of one limit per page more; the sandbox's own limit is
 * extended with it (sandbox/progress.ts).
 */
export interface DocumentTimeLimit {
  /** Rejects (code 'timeout') when the limit runs out. */
  expired: Promise<never>;
  /** One more page read: the limit starts again, within the ceiling. */
  pageDone(): void;
  clear(): void;
}

export function documentTimeLimit(
  ms: number,
  ceilingMs: number,
  onPage: () => void = reportSandboxProgress,
): DocumentTimeLimit {
  const start = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let fire: (error: Error) => void = () => {};
  const expired = new Promise<never>((_, reject) => {
    fire = reject;
  });
  const arm = (delay: number) => {
    clearTimeout(timer);
    timer = setTimeout(
      () => fire(Object.assign(new Error(`Extraction took longer than ${Date.now() - start} ms`), { code: 'timeout' })),
      delay,
    );
  };
  arm(ms);
  return {
    expired,
    pageDone() {
      const now = Date.now();
      arm(Math.max(0, Math.min(now + ms, start + ceilingMs) - now));
      onPage();
    },
    clear: () => clearTimeout(timer),
  };
}
