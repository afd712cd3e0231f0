import { FORWARDING_MAX_RECIPIENTS, FORWARDING_MESSAGES } from '@invoicebox/core';

export type AddRecipientResult =
  | { kind: 'added'; recipients: string[] }
  | { kind: 'ignored' }
  | { kind: 'refused'; message: string };

/**
 * Spec §5 at least an '@' and a '.', and one address only: no spaces, something before the '@', a dot in the domain
 * with something on both sides. The server checks again with a real address parser.
 */
const ADDRESS_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@.]+$/;

export function isPlausibleAddress(value: string): boolean {
  return value.includes('@') && value.includes('.') && ADDRESS_SHAPE.test(value) && !value.includes('..');
}

/**
 * Spec §5 forwarding address add: the input is trimmed and an empty value is ignored; an address that does not look
 * like one, a duplicate (compared case-insensitively: mailboxes do not differ by case in practice) or one past the
 * maximum is refused with its message.
 */
export function addRecipient(
  recipients: readonly string[],
  input: string,
  max: number = FORWARDING_MAX_RECIPIENTS,
): AddRecipientResult {
  const address = input.trim();
  if (!address) return { kind: 'ignored' };
  if (!isPlausibleAddress(address)) return { kind: 'refused', message: FORWARDING_MESSAGES.invalidAddress };
  const lower = address.toLowerCase();
  if (recipients.some((r) => r.toLowerCase() === lower)) {
    return { kind: 'refused', message: FORWARDING_MESSAGES.duplicateAddress };
  }
  if (recipients.length >= max) return { kind: 'refused', message: tooManyMessage(max) };
  return { kind: 'added', recipients: [...recipients, address] };
}

/** The server's maximum may differ from core's default (config.max_recipients); the message names the one in force. */
function tooManyMessage(max: number): string {
  return max === FORWARDING_MAX_RECIPIENTS
    ? FORWARDING_MESSAGES.tooManyRecipients
    : `At most ${max} recipient addresses can be added`;
}
