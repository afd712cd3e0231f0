import { FORWARDING_MESSAGES } from '@invoicebox/core';
import emailAddresses from 'email-addresses';
import { ValidationError } from '../errors';

/**
 * One recipient address as typed: trimmed, parsed by an RFC 5322 parser (email-addresses) as a single bare address
 * (no display name, no group, no list), with a domain that has a dot and no IP literal. Returns it lower-cased, or
 * null when it is not such an address.
 */
export function parseRecipient(input: string): string | null {
  const value = input.trim();
  if (value === '' || value.length > 320 || /[\s<>,;]/.test(value)) return null;
  const parsed = emailAddresses.parseOneAddress({ input: value, rfc6532: true, rejectTLD: true });
  if (parsed?.type !== 'mailbox' || parsed.name) return null;
  const { local, domain } = parsed;
  if (!local || !domain || local.length > 64 || domain.startsWith('[') || !domain.includes('.')) return null;
  if (domain.split('.').some((label) => label === '' || label.length > 63 || /^-|-$/.test(label))) return null;
  return `${local}@${domain}`.toLowerCase();
}

/**
 * The recipient list of a PUT /forwarding/config: every address valid (spec §5 'Please enter a valid email address'),
 * none twice whatever its case ('Email address already added'), at most `max`. Empty entries are ignored (§5: the
 * input is trimmed and an empty value is ignored).
 */
export function normalizeRecipients(input: readonly string[], max: number): string[] {
  const out: string[] = [];
  for (const raw of input) {
    if (raw.trim() === '') continue;
    const address = parseRecipient(raw);
    if (!address) throw new ValidationError(`${FORWARDING_MESSAGES.invalidAddress}: ${raw.trim().slice(0, 320)}`);
    if (out.includes(address)) throw new ValidationError(`${FORWARDING_MESSAGES.duplicateAddress}: ${address}`);
    out.push(address);
  }
  if (out.length > max) {
    throw new ValidationError(FORWARDING_MESSAGES.tooManyRecipients.replace(/\d+/, String(max)));
  }
  return out;
}
