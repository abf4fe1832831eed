import { describe, expect, it } from 'vitest';
import { createRateLimiter, createRateLimiters, DEFAULT_LIMITS } from './rate-limit.js';

describe('token-bucket rate limiter', () => {
  it('allows a burst, refuses the next request, and refills over the window', () => {
    let t = 0;
    const limiter = createRateLimiter({ burst: 3, perWindow: 6, windowMs: 60_000 }, () => t);
    expect([1, 2, 3].map(() => limiter.take('1.2.3.4'))).toEqual([true, true, true]);
    expect(limiter.take('1.2.3.4')).toBe(false);
    // Another key has its own bucket.
    expect(limiter.take('5.6.7.8')).toBe(true);
    t += 9_999; // 6 per minute = one every 10 s
    expect(limiter.take('1.2.3.4')).toBe(false);
    t += 1;
    expect(limiter.take('1.2.3.4')).toBe(true);
    expect(limiter.take('1.2.3.4')).toBe(false);
    t += 10 * 60_000; // a long pause refills only up to the burst
    expect([1, 2, 3, 4].map(() => limiter.take('1.2.3.4'))).toEqual([true, true, true, false]);
  });

  it('check() looks without taking', () => {
    const limiter = createRateLimiter({ burst: 1, perWindow: 1, windowMs: 60_000 }, () => 0);
    expect(limiter.check('k')).toBe(true);
    expect(limiter.check('k')).toBe(true);
    expect(limiter.take('k')).toBe(true);
    expect(limiter.check('k')).toBe(false);
  });

  it('retryAfterMs() says when the next token comes, without taking one', () => {
    let t = 0;
    const limiter = createRateLimiter({ burst: 2, perWindow: 2, windowMs: 60_000 }, () => t);
    expect(limiter.retryAfterMs('k')).toBe(0);
    limiter.take('k');
    limiter.take('k');
    expect(limiter.retryAfterMs('k')).toBe(30_000); // 2 per minute: one every 30 s
    t += 10_000;
    expect(limiter.retryAfterMs('k')).toBe(20_000);
    t += 20_000;
    expect(limiter.retryAfterMs('k')).toBe(0);
    expect(limiter.take('k')).toBe(true);
    expect(createRateLimiter(null).retryAfterMs('k')).toBe(0);
  });

  it("uses GoTrue's defaults and can turn a limit off", () => {
    const t = 0;
    const limiters = createRateLimiters({ signup: null }, () => t);
    const tokenResults = Array.from({ length: DEFAULT_LIMITS.token.burst + 1 }, () =>
      limiters.token.take('ip'),
    );
    expect(tokenResults.filter(Boolean)).toHaveLength(30);
    expect(Array.from({ length: 1000 }, () => limiters.signup.take('ip')).every(Boolean)).toBe(true);
  });
});

describe('rate limits from the configuration', () => {
  it('reads AUTH_RATE_LIMIT_* per 5 minutes, with GoTrue defaults and 0 as off', async () => {
    const { parseConfig } = await import('../config.js');
    const { rateLimitsFromConfig } = await import('./embedded.js');
    expect(rateLimitsFromConfig(parseConfig({}))).toEqual({
      token: { burst: 30, perWindow: 150, windowMs: 300_000 },
      signup: { burst: 30, perWindow: 30, windowMs: 300_000 },
      recover: { burst: 30, perWindow: 30, windowMs: 300_000 },
      verify: { burst: 30, perWindow: 30, windowMs: 300_000 },
    });
    const custom = rateLimitsFromConfig(
      parseConfig({ AUTH_RATE_LIMIT_TOKEN: '0', AUTH_RATE_LIMIT_SIGNUP: '5' }),
    );
    expect(custom.token).toBeNull();
    expect(custom.signup).toEqual({ burst: 5, perWindow: 5, windowMs: 300_000 });
    expect(() => parseConfig({ AUTH_RATE_LIMIT_VERIFY: 'lots' })).toThrow(/AUTH_RATE_LIMIT_VERIFY/);
  });
});
