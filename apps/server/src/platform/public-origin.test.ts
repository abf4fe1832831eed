import { describe, expect, it } from 'vitest';
import { createPublicOrigin, isLoopbackHost, listenOrigin, ownRequestOrigin } from './public-origin.js';

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

  it("takes a request's origin only as a loopback twin of the public origin", () => {
    const local = 'http://localhost:4000';
    expect(ownRequestOrigin('http://127.0.0.1:4000/api/x', local)).toBe('http://127.0.0.1:4000');
    expect(ownRequestOrigin('http://[::1]:4000/api/x', local)).toBe('http://[::1]:4000');
    // Another port, scheme or any other host: the configured origin, whatever Host said.
    expect(ownRequestOrigin('http://127.0.0.1:4001/api/x', local)).toBe(local);
    expect(ownRequestOrigin('https://127.0.0.1:4000/api/x', local)).toBe(local);
    expect(ownRequestOrigin('http://evil.example:4000/api/x', local)).toBe(local);
    const site = 'https://engage.example/base';
    expect(ownRequestOrigin('https://engage.example/api/x', site)).toBe('https://engage.example');
    expect(ownRequestOrigin('http://localhost:80/api/x', site)).toBe('https://engage.example');
  });
});
