import { describe, expect, it } from 'vitest';
import { addressKey } from './lockout';

describe('the client address a lock-out counts', () => {
  it('is the IPv4 address, also when written IPv4-mapped', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:9',
      '2001:db8:1:2::a%eth0',
    ]) {
      expect(addressKey(ip), ip).toBe('2001:db8:1:2::/64');
    }
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(addressKey('unknown')).toBe('unknown');
  });
});
