import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('accepts 6 to 72 bytes and names the rule otherwise', () => {
    expect(passwordProblem('12345')).toMatch(/at least 6/);
    expect(passwordProblem('123456')).toBeNull();
    expect(passwordProblem('x'.repeat(72))).toBeNull();
    expect(passwordProblem('x'.repeat(73))).toBe('Password cannot be longer than 72 bytes.');
    expect(passwordProblem('é'.repeat(37))).toMatch(/longer than 72 bytes/); // 74 bytes
  });

  it('refuses NUL and the other control characters sign-in could not carry', () => {
    expect(passwordProblem('secret\0secret')).toBe(
      'Password cannot contain control characters (such as NUL).',
    );
    expect(passwordProblem('new\nline12')).toMatch(/control characters/);
    expect(passwordProblem('spaces and ünïcödé are fine')).toBeNull();
  });

  it('hashes with argon2id and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });
});
