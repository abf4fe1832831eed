import { describe, expect, it } from 'vitest';
import { addressKey } from './address.js';

describe('the address rule', () => {
  it('counts an IPv4 address alone, also written as IPv4-mapped IPv6', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('203.0.113.8')).toBe('203.0.113.8');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one, in any spelling', () => {
    const keys = new Set(
      [
        '2001:db8:1:2::1',
        '2001:db8:1:2:ffff:ffff:ffff:ffff',
        '2001:0DB8:0001:0002:0000:0000:0000:00c8',
        '2001:db8:1:2:a:b:c:d%eth0',
        '2001:db8:1:2::1.2.3.4',
      ].map(addressKey),
    );
    expect([...keys]).toEqual(['2001:db8:1:2::/64']);
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%lo')).toBe('fe80:0:0:0::/64');
  });

  it('keeps what is not an address as it is', () => {
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('1:2:3')).toBe('1:2:3');
    expect(addressKey('1::2::3')).toBe('1::2::3');
    expect(addressKey('300.1.1.1')).toBe('300.1.1.1');
  });

  it('gives 200 addresses of one /64 one key and 200 IPv4 addresses 200 keys (the reported attack)', () => {
    const v6 = Array.from({ length: 200 }, (_, i) => `2001:db8:aa:bb::${(i + 1).toString(16)}`);
    const v4 = Array.from({ length: 200 }, (_, i) => `198.51.${i >> 8}.${i & 255}`);
    expect(new Set(v6.map(addressKey)).size).toBe(1);
    expect(new Set(v4.map(addressKey)).size).toBe(200);
  });
});
