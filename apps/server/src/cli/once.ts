/** `fn` run at most once: later calls get the first call's promise (a signal and a fatal error may both stop). */
export function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= fn();
    return running;
  };
}
