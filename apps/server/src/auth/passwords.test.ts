import { describe, expect, it } from 'vitest';
import {
  checkPassword,
  COMMON_PASSWORD_MESSAGE,
  hashPassword,
  passwordProblem,
  verifyPassword,
  weakPassword,
} from './passwords.js';

describe('passwords', () => {
  it('accepts 6 to 72 bytes and names the rule otherwise, in characters', () => {
    expect(passwordProblem('12345')).toMatch(/at least 6/);
    expect(passwordProblem('x'.repeat(72))).toBeNull();
    expect(passwordProblem('x'.repeat(73))).toMatch(/^Password cannot be longer than 72 characters \(/);
    expect(passwordProblem('é'.repeat(37))).toMatch(/longer than 72 characters \(fewer with accented/); // 74 bytes
  });

  it('refuses the most common passwords, whatever their case, as GoTrue\u2019s pwned reason', () => {
    for (const common of ['password', 'Password', 'PASSWORD1', '123456', 'qwerty123', 'iloveyou', 'letmein'])
      expect(checkPassword(common), common).toEqual({ reason: 'pwned', message: COMMON_PASSWORD_MESSAGE });
    expect(weakPassword('password')).toMatchObject({
      status: 422,
      code: 'weak_password',
      extra: { weak_password: { reasons: ['pwned'] } },
    });
    expect(weakPassword('12345')).toMatchObject({
      status: 422,
      extra: { weak_password: { reasons: ['length'] } },
    });
    expect(passwordProblem('correct horse 1')).toBeNull();
    expect(passwordProblem('password with more words')).toBeNull();
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
