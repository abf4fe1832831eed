import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { acceptedStep, backoffMs, isReusedCode } from './mfa-attempts.js';

const secret = new OTPAuth.Secret({ size: 20 }).base32;
const codeAt = (ms: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: ms });

describe('TOTP rules per factor', () => {
  it('backs off from the fifth wrong code in a row, doubling up to 15 minutes', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7].map(backoffMs)).toEqual([30_000, 60_000, 120_000]);
    expect(backoffMs(50)).toBe(15 * 60_000);
  });

  it('accepts a code once: the same step, or an older one, never again', () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(acceptedStep(secret, codeAt(now), now, null)).toBe(step);
    expect(acceptedStep(secret, codeAt(now), now, step)).toBeNull();
    expect(acceptedStep(secret, codeAt(now - 30_000), now, step)).toBeNull();
    // The next step's code (clock drift) is still newer.
    expect(acceptedStep(secret, codeAt(now + 30_000), now, step)).toBe(step + 1);
    expect(acceptedStep(secret, '000000', now, null) === null || codeAt(now) === '000000').toBe(true);
  });

  it('tells a code already used from a wrong one', () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(isReusedCode(secret, codeAt(now), now, step)).toBe(true);
    expect(isReusedCode(secret, codeAt(now - 30_000), now, step)).toBe(true);
    // Not used yet, or never accepted before: not a reuse.
    expect(isReusedCode(secret, codeAt(now + 30_000), now, step)).toBe(false);
    expect(isReusedCode(secret, codeAt(now), now, null)).toBe(false);
    const wrong = codeAt(now) === '000000' ? '111111' : '000000';
    expect(isReusedCode(secret, wrong, now, step)).toBe(false);
  });
});
