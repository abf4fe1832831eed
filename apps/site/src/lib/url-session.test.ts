import { afterEach, describe, expect, it } from 'vitest';
import { dropEmptyFragment, takeSessionFromUrl } from './url-session';

afterEach(() => window.history.replaceState(null, '', '/'));

describe("a mail link's session in the URL", () => {
  it('leaves the address bar in the same history entry, before auth-js clears the fragment', () => {
    window.history.replaceState(
      { idx: 3 },
      '',
      '/profile?tab=2#access_token=secret-at&refresh_token=r&type=recovery',
    );
    const entries = window.history.length;
    expect(takeSessionFromUrl({ access_token: 'secret-at', refresh_token: 'r', type: 'recovery' })).toBe(
      true,
    );
    expect(window.location.href).toBe(`${window.location.origin}/profile?tab=2#`);
    expect(window.history.length).toBe(entries);
    expect(window.history.state).toEqual({ idx: 3 }); // the router's state is kept
    dropEmptyFragment();
    expect(window.location.href).toBe(`${window.location.origin}/profile?tab=2`);
    expect(window.history.length).toBe(entries);
  });

  it("tells auth-js about a link's error without touching the URL (the page shows it, then clears it)", () => {
    window.history.replaceState(null, '', '/#error=access_denied&error_description=Email+link+is+invalid');
    expect(takeSessionFromUrl({ error: 'access_denied', error_description: 'Email link is invalid' })).toBe(
      true,
    );
    expect(window.location.hash).toBe('#error=access_denied&error_description=Email+link+is+invalid');
  });

  it('is no callback without tokens or an error', () => {
    window.history.replaceState(null, '', '/profile#section');
    expect(takeSessionFromUrl({})).toBe(false);
    expect(window.location.hash).toBe('#section');
  });
});
