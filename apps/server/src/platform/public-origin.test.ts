import { describe, expect, it } from 'vitest';
import { createPublicOrigin, isLoopbackHost, listenOrigin } from './public-origin.js';

describe('public origin', () => {
  it('is PUBLIC_URL when set, without a trailing slash', () => {
    const origin = createPublicOrigin({ PUBLIC_URL: 'https://engage.example/', HOST: '0.0.0.0', PORT: 8787 });
    origin.listening(4000);
    expect(origin.get()).toBe('https://engage.example');
  });

  it('is the listen address on loopback, with the port actually bound', () => {
    const origin = createPublicOrigin({ HOST: '127.0.0.1', PORT: 0 });
    origin.listening(40123);
    expect(origin.get()).toBe('http://localhost:40123');
  });

  it('brackets an IPv6 listen address', () => {
    expect(listenOrigin('fd00::1', 80)).toBe('http://[fd00::1]:80');
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.3.2.1', '::1', 'localhost'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'evil.example'])
      expect(isLoopbackHost(host)).toBe(false);
  });
});
