import { describe, expect, it } from 'vitest';
import { addRecipient, isPlausibleAddress } from './recipients';

describe('forwarding address add (spec §5)', () => {
  it('trims the input and adds the address', () => {
    expect(addRecipient(['a@x.test'], '  accountant@firm.example  ')).toEqual({
      kind: 'added',
      recipients: ['a@x.test', 'accountant@firm.example'],
    });
  });

  it('ignores an empty or blank value', () => {
    expect(addRecipient([], '')).toEqual({ kind: 'ignored' });
    expect(addRecipient([], '   ')).toEqual({ kind: 'ignored' });
  });

  it.each(['accountant', 'accountant@firm', 'firm.example', '@firm.example', 'a b@firm.example', 'a@firm.', 'a@@b.c'])(
    "refuses %j with 'Please enter a valid email address'",
    (input) => {
      expect(addRecipient([], input)).toEqual({ kind: 'refused', message: 'Please enter a valid email address' });
    },
  );

  it("refuses a duplicate, whatever its case, with 'Email address already added'", () => {
    const list = ['Accountant@Firm.example'];
    expect(addRecipient(list, 'accountant@firm.example')).toEqual({
      kind: 'refused',
      message: 'Email address already added',
    });
    expect(addRecipient(list, ' ACCOUNTANT@FIRM.EXAMPLE ')).toMatchObject({ kind: 'refused' });
  });

  it('refuses an address past the maximum, naming it', () => {
    expect(addRecipient(['a@x.test', 'b@x.test'], 'c@x.test', 2)).toEqual({
      kind: 'refused',
      message: 'At most 2 recipient addresses can be added',
    });
    const twenty = Array.from({ length: 20 }, (_, i) => `r${i}@x.test`);
    expect(addRecipient(twenty, 'new@x.test')).toEqual({
      kind: 'refused',
      message: 'At most 20 recipient addresses can be added',
    });
  });

  it('accepts ordinary addresses with plus tags and subdomains', () => {
    expect(isPlausibleAddress('first.last+invoices@mail.firm.co.uk')).toBe(true);
    expect(isPlausibleAddress('a..b@firm.example')).toBe(false);
  });
});
