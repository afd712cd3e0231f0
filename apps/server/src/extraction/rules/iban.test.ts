import { describe, expect, it } from 'vitest';
import { ibanShaped, ibanValid } from './iban';

describe('ibanValid', () => {
  it('accepts IBANs whose check digits hold and refuses look-alikes', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('NL78INGB0680000917')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    // An IndiGo invoice number: two letters, two digits and twelve more, but no IBAN.
    expect(ibanValid('DL1232402DO21075')).toBe(false);
    expect(ibanValid('de89370400440532013000')).toBe(false);
  });

  it('takes an IBAN of a country that issues them for one even with a misread check digit', () => {
    expect(ibanShaped('DE89370400440532013001')).toBe(true);
    expect(ibanShaped('DL1232402DO21075')).toBe(false);
  });
});
