import { describe, expect, it } from 'vitest';
import { sameSecret } from './same-secret.js';

describe('sameSecret', () => {
  it('accepts the secret and refuses anything else, whatever its length', () => {
    expect(sameSecret('service-role-key', 'service-role-key')).toBe(true);
    for (const other of ['service-role-kez', 'service-role-ke', 'service-role-key ', 's', 'x'.repeat(10_000)])
      expect(sameSecret('service-role-key', other), other).toBe(false);
    expect(sameSecret('service-role-key', '')).toBe(false);
    expect(sameSecret('service-role-key', undefined)).toBe(false);
    expect(sameSecret('service-role-key', null)).toBe(false);
    // An unset secret matches nothing, not even an empty value.
    expect(sameSecret('', '')).toBe(false);
  });
});
