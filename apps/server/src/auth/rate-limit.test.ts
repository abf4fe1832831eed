import { describe, expect, it } from 'vitest';
import { createRateLimiters, DEFAULT_LIMITS, NO_LIMITS, perAddress } from './rate-limit.js';

describe('the auth limits', () => {
  it("uses GoTrue's defaults and can turn a limit off", async () => {
    const limiters = createRateLimiters({ signup: null }, () => 0);
    const token = await Promise.all(
      Array.from({ length: DEFAULT_LIMITS.token.burst + 1 }, () => limiters.token.take('ip')),
    );
    expect(token.filter((d) => d.allowed)).toHaveLength(30);
    const signups = await Promise.all(Array.from({ length: 1000 }, () => limiters.signup.take('ip')));
    expect(signups.every((d) => d.allowed)).toBe(true);
    const none = createRateLimiters(NO_LIMITS);
    expect(
      (await Promise.all(Array.from({ length: 100 }, () => none.mfa.take('k')))).every((d) => d.allowed),
    ).toBe(true);
  });

  it('counts a per-address limit by the address rule: one IPv6 /64 is one caller', async () => {
    const mfa = perAddress(
      createRateLimiters({ mfa: { burst: 2, perWindow: 2, windowMs: 60_000 } }, () => 0).mfa,
    );
    expect(await mfa.take('2001:db8:5:6::1')).toBe(true);
    expect(await mfa.take('2001:db8:5:6::2')).toBe(true);
    expect(await mfa.take('2001:db8:5:6:ffff::3')).toBe(false);
    expect(await mfa.take('2001:db8:5:7::1')).toBe(true);
  });
});

describe('rate limits from the configuration', () => {
  it('reads AUTH_RATE_LIMIT_* per 5 minutes (anonymous sign-ins per hour), with GoTrue defaults and 0 as off', async () => {
    const { parseConfig } = await import('../platform/config.js');
    const { rateLimitsFromConfig } = await import('./embedded.js');
    expect(rateLimitsFromConfig(parseConfig({}))).toEqual({
      token: { burst: 30, perWindow: 150, windowMs: 300_000 },
      signup: { burst: 30, perWindow: 30, windowMs: 300_000 },
      recover: { burst: 30, perWindow: 30, windowMs: 300_000 },
      verify: { burst: 30, perWindow: 30, windowMs: 300_000 },
      anonymous: { burst: 30, perWindow: 30, windowMs: 3_600_000 },
    });
    const custom = rateLimitsFromConfig(
      parseConfig({ AUTH_RATE_LIMIT_TOKEN: '0', AUTH_RATE_LIMIT_SIGNUP: '5' }),
    );
    expect(custom.token).toBeNull();
    expect(custom.signup).toEqual({ burst: 5, perWindow: 5, windowMs: 300_000 });
    expect(() => parseConfig({ AUTH_RATE_LIMIT_VERIFY: 'lots' })).toThrow(/AUTH_RATE_LIMIT_VERIFY/);
  });
});
