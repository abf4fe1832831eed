import type { Session, User } from '@supabase/auth-js';

/**
 * The guard's synchronous first decision, read from the session auth-js keeps in localStorage, so a
 * page can paint the right thing before the auth client (auth-js, ~30 kB gzip) has loaded.
 * public/session-hint.js repeats the same rules in plain JavaScript for the prerendered HTML's first
 * paint; keep the two in step (stored-session.test.ts runs both on the same cases).
 */

/**
 * auth-js's own expiry margin (EXPIRY_MARGIN_MS): a session closer to its expiry than this is
 * refreshed by the client before it is used, so the guard waits for that refresh too.
 */
export const EXPIRY_MARGIN_MS = 90_000;

/** supabase-js's default storage key (`sb-<first label of the auth host>-auth-token`), kept as is. */
export function storageKeyFor(authUrl: string | null, origin: string): string {
  const host = new URL(authUrl ?? origin).hostname;
  return `sb-${host.split('.')[0]}-auth-token`;
}

export type StoredSession =
  /** Nobody is signed in on this browser. */
  | { kind: 'none' }
  /** A session that is still valid for longer than the expiry margin: usable now. */
  | { kind: 'valid'; session: Session }
  /** A session the client must refresh (or refuse) before anything protected shows. */
  | { kind: 'expired' };

function isSession(value: unknown): value is Session {
  const v = value as Session | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.access_token === 'string' &&
    typeof v.refresh_token === 'string' &&
    typeof v.expires_at === 'number' &&
    typeof v.user === 'object' &&
    v.user !== null &&
    typeof v.user.id === 'string'
  );
}

/** Reads the stored session; a value that does not look like one counts as no session. */
export function readStoredSession(
  storage: Pick<Storage, 'getItem'>,
  key: string,
  now: number,
): StoredSession {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    return { kind: 'none' }; // storage blocked (privacy settings): auth-js cannot persist either
  }
  if (!raw) return { kind: 'none' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { kind: 'none' };
  }
  if (!isSession(parsed)) return { kind: 'none' };
  const expiresAt = (parsed.expires_at ?? 0) * 1000;
  return expiresAt - now > EXPIRY_MARGIN_MS ? { kind: 'valid', session: parsed } : { kind: 'expired' };
}

/**
 * True when the URL carries what auth-js's detectSessionInUrl consumes (a mail link's session or its
 * error, a PKCE code): the client must load now to read it.
 */
export function urlHasAuthResult(hash: string, search: string): boolean {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const query = new URLSearchParams(search);
  return (
    ['access_token', 'error', 'error_description', 'error_code'].some((p) => params.has(p)) ||
    query.has('code')
  );
}

/** The admin role, which only the server writes (app_metadata): it shows the Admin link. */
export const isAdminUser = (user: Pick<User, 'app_metadata'> | null | undefined): boolean =>
  user?.app_metadata?.role === 'admin';

/** Operators and admins see the conversations; the server refuses anyone else all the same. */
export const isOperatorUser = (user: Pick<User, 'app_metadata'> | null | undefined): boolean =>
  user?.app_metadata?.role === 'operator' || isAdminUser(user);
