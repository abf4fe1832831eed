import { readFileSync } from 'node:fs';
import path from 'node:path';
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

  // The timing itself is not measurable reliably in a test; what is checked is that the places
  // comparing the embedded auth's keys go through sameSecret, never `===` / `!==`.
  it('is what the auth routes and the admin API compare the API keys with', () => {
    const source = (file: string) => readFileSync(path.join(import.meta.dirname, '..', file), 'utf8');
    for (const file of ['auth/admin-api.ts', 'routes/auth.ts']) {
      const text = source(file);
      expect(text, file).not.toMatch(/[!=]==\s*(service\.)?keys\.(serviceRoleKey|anonKey)/);
      expect(text, file).not.toMatch(/(serviceRoleKey|anonKey)\s*[!=]==/);
      expect(text, file).toContain('sameSecret(');
    }
  });
});
