import { FORWARDING_MAX_RECIPIENTS } from '@invoicebox/core';

/** The recipient limit a new config row gets (kept per person in forwarding_config.max_recipients). */
export const FORWARDING_DEFAULT_MAX_RECIPIENTS = FORWARDING_MAX_RECIPIENTS;

/** The job that sends a person's pending forwards (History shows it as 'Invoice Forwarding'). */
export const FORWARDING_JOB = 'invoice_forwarding';

/** Tries per (invoice, recipient) before a temporary failure counts as failed. */
export const FORWARDING_MAX_ATTEMPTS = 8;

/** Backoff of a temporary failure: 30 s, doubled per try, at most 1 hour. */
export function forwardingBackoffMs(attempts: number, baseMs = 30_000): number {
  return Math.min(3_600_000, baseMs * 2 ** Math.max(0, attempts - 1));
}
