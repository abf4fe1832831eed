import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStoredSession, storageKeyFor, urlHasAuthResult } from './stored-session';

const now = Date.UTC(2026, 0, 1);
const session = (expiresInSeconds: number, email = 'ada@example.com') =>
  JSON.stringify({
    access_token: 'a',
    refresh_token: 'r',
    token_type: 'bearer',
    expires_in: 3600,
    expires_at: Math.floor(now / 1000) + expiresInSeconds,
    user: { id: 'u1', email },
  });
const key = storageKeyFor(null, 'http://127.0.0.1:8787');
const storage = (value: string | null) => ({ getItem: () => value });

// public/session-hint.js decides the first paint with the same rules; it runs here as in a page.
const hint = readFileSync(path.resolve(import.meta.dirname, '../../public/session-hint.js'), 'utf8');
function runHint(stored: string | null, hash = ''): { state: string | null; initial: string } {
  window.localStorage.clear();
  if (stored) window.localStorage.setItem(storageKeyFor(null, window.location.origin), stored);
  window.location.hash = hash;
  document.documentElement.removeAttribute('data-session');
  document.documentElement.style.removeProperty('--session-initial');
  new Function(hint)();
  return {
    state: document.documentElement.getAttribute('data-session'),
    initial: document.documentElement.style.getPropertyValue('--session-initial'),
  };
}

afterEach(() => {
  window.localStorage.clear();
  window.location.hash = '';
});

describe('the stored session', () => {
  it('uses supabase-js’s storage key, so sessions stored before auth-js still count', () => {
    expect(key).toBe('sb-127-auth-token');
    expect(storageKeyFor('https://abc.supabase.co', 'http://x')).toBe('sb-abc-auth-token');
  });

  it('is valid when it expires later than auth-js’s refresh margin, expired otherwise', () => {
    expect(readStoredSession(storage(session(3600)), key, now)).toMatchObject({
      kind: 'valid',
      session: { user: { id: 'u1' } },
    });
    expect(readStoredSession(storage(session(60)), key, now)).toEqual({ kind: 'expired' });
    expect(readStoredSession(storage(session(-10)), key, now)).toEqual({ kind: 'expired' });
  });

  it('counts anything that is not a session as none', () => {
    expect(readStoredSession(storage(null), key, now)).toEqual({ kind: 'none' });
    expect(readStoredSession(storage('{not json'), key, now)).toEqual({ kind: 'none' });
    expect(readStoredSession(storage('{"access_token":"a"}'), key, now)).toEqual({ kind: 'none' });
    const throwing = {
      getItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readStoredSession(throwing, key, now)).toEqual({ kind: 'none' });
  });

  it('needs the client now when a mail link’s result is in the URL', () => {
    expect(urlHasAuthResult('#access_token=x&type=recovery', '')).toBe(true);
    expect(urlHasAuthResult('#error=access_denied&error_description=expired', '')).toBe(true);
    expect(urlHasAuthResult('', '?code=abc')).toBe(true);
    expect(urlHasAuthResult('#roles', '?utm=1')).toBe(false);
  });
});

describe('public/session-hint.js (first paint)', () => {
  it('marks a visitor without a session as none', () => {
    expect(runHint(null).state).toBe('none');
    expect(runHint('{"access_token":1}').state).toBe('none');
  });

  it('marks a valid session, with the avatar’s initial for the navigation', () => {
    const expiresIn = Math.floor((Date.now() - now) / 1000) + 3600;
    expect(runHint(session(expiresIn, ' zoe@example.com'))).toEqual({ state: 'valid', initial: '"Z"' });
  });

  it('marks an expired session, and a mail link’s result, as pending', () => {
    expect(runHint(session(-10)).state).toBe('pending');
    expect(runHint(null, '#access_token=x').state).toBe('pending');
  });
});
