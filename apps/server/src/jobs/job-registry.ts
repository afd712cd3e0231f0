import type { z } from 'zod';

/** What a handler gets: its validated payload, whose job it is, and ways to report and to notice shutdown. */
export interface JobContext<P> {
  readonly jobId: string;
  readonly ownerId: string;
  readonly payload: P;
  /** 1 on the first delivery, 2 after a retry or a lost worker, ... */
  readonly attempt: number;
  /** Aborted when the process shuts down: stop at the next safe point and throw; the job is retried. */
  readonly signal: AbortSignal;
  /** Records progress (0-100) and a human-readable message on the job; also renews the worker's lease. */
  progress(percent: number, message?: string): Promise<void>;
}

export interface JobDefinition<P> {
  readonly payload: z.ZodType<P>;
  /**
   * Does the work. Every handler must be safe to run again from the start (a worker can die at any line): give the
   * work a natural key and check-and-act in one transaction. The returned string is the job's final message.
   */
  readonly handler: (ctx: JobContext<P>) => Promise<string | undefined>;
  /** Deliveries after the first when the handler throws a retryable error or its worker is lost. Default 3. */
  readonly retryLimit?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds definitions of many payload types
export type JobRegistry = Record<string, JobDefinition<any>>;

/** Keeps each handler's payload type tied to its schema while building a registry. */
export function defineJob<S extends z.ZodType>(definition: {
  payload: S;
  handler: (ctx: JobContext<z.output<S>>) => Promise<string | undefined>;
  retryLimit?: number;
}): JobDefinition<z.output<S>> {
  return definition as JobDefinition<z.output<S>>;
}

export type PayloadOf<R extends JobRegistry, K extends keyof R> = R[K] extends JobDefinition<infer P> ? P : never;
