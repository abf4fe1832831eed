import type { AuthChangeEvent, GoTrueClient, Session, User } from '@supabase/auth-js';
import { useCallback, useSyncExternalStore } from 'react';
import { onAuthClientCreated, onSessionRefused } from './auth-client-events';
import { onFirstInput } from './first-input';
import { forgetRecovery, recoveryPending, rememberRecovery } from './password-recovery';
import { usePublicConfig, type PublicConfig } from './public-config';
import {
  EXPIRY_MARGIN_MS,
  isAdminUser,
  readStoredSession,
  storageKeyFor,
  urlHasAuthResult,
} from './stored-session';
import type { SupabaseClient } from './supabase';
import { dropEmptyFragment } from './url-session';

// Where the site listens for the first input; kept importable from here for its callers.
export { onFirstInput };

export interface SessionState {
  session: Session | null;
  user: User | null;
  /** True when the user's app_metadata.role is 'admin' (set by the server; users cannot write it). */
  isAdmin: boolean;
  /** True until it is known whether somebody is signed in (a refresh or a mail link is pending). */
  loading: boolean;
  /** The last auth event (null while the state comes from the stored session alone). */
  event: AuthChangeEvent | null;
  /** True from a password-reset link's sign-in until the password is changed or the user signs out. */
  passwordRecovery: boolean;
  /** Set when the auth client could not be loaded (e.g. a failed chunk download). */
  error: string | null;
  /**
   * True while the page is prerendered or hydrated: the markup must be the same for everybody, so
   * session-dependent parts render their neutral shell (styled by public/session-hint.js's hint).
   */
  prerender: boolean;
  /**
   * True once the auth service refused the session (the account was deleted, the session revoked):
   * the site signed out and says so until the user signs in again or dismisses the message.
   */
  sessionEnded: boolean;
}

const empty: SessionState = {
  session: null,
  user: null,
  isAdmin: false,
  loading: false,
  event: null,
  passwordRecovery: false,
  error: null,
  prerender: false,
  sessionEnded: false,
};
const loadingState: SessionState = { ...empty, loading: true };
/** What the server renders and what hydration sees first. */
const prerenderState: SessionState = { ...empty, loading: true, prerender: true };

/**
 * The site's auth client, loaded on first need: auth-js (about 30 kB gzipped) stays out of every
 * landing page's JavaScript before the first input. Loading it connects it to the store.
 */
export function loadSupabase(config: PublicConfig): Promise<SupabaseClient> {
  return import('./supabase').then((m) => m.getSupabase(config));
}

let state: SessionState = loadingState;
let started = false;
let connected = false;
/** True from the auth service's refusal of the session until auth-js has forgotten it. */
let ending = false;
let stopWatchingStorage: (() => void) | null = null;
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  for (const l of listeners) l();
}

/**
 * Whether the new password is still to be asked for: from a reset link's sign-in until the password
 * is set (USER_UPDATED), the user signs out or dismisses the prompt; across reloads too
 * (lib/password-recovery.ts).
 */
function recovering(session: Session | null, event: AuthChangeEvent | null): boolean {
  if (!session || event === 'SIGNED_OUT' || event === 'USER_UPDATED') {
    forgetRecovery();
    return false;
  }
  if (event === 'PASSWORD_RECOVERY') {
    rememberRecovery(session.user.id);
    return true;
  }
  return state.passwordRecovery || recoveryPending(session.user.id);
}

function fromSession(session: Session | null, event: AuthChangeEvent | null): SessionState {
  return {
    ...empty,
    session,
    user: session?.user ?? null,
    isAdmin: isAdminUser(session?.user),
    event,
    passwordRecovery: recovering(session, event),
    sessionEnded: state.sessionEnded && !(session && event === 'SIGNED_IN'),
  };
}

/**
 * Decides from the stored session, synchronously, then loads auth-js when it is needed:
 * - a mail link's result in the URL, or a stored session that expired (or is about to): now, and the
 *   guard shows its spinner until auth-js has refreshed or refused it;
 * - a valid stored session: on the first input, or shortly before it expires, whichever comes first;
 *   the user is signed in meanwhile (auth-js itself trusts a stored session until it expires);
 * - no session: when the visitor signs in (the auth card loads it).
 */
function start(config: PublicConfig) {
  if (started || typeof window === 'undefined') return;
  started = true;
  const load = () => {
    loadSupabase(config).catch((error: Error) => set({ ...empty, error: error.message }));
  };
  const key = storageKeyFor(config.auth.url, window.location.origin);
  const decide = (): SessionState => {
    const stored = readStoredSession(window.localStorage, key, Date.now());
    if (stored.kind === 'none') return empty;
    if (stored.kind === 'expired') {
      load();
      return loadingState;
    }
    return fromSession(stored.session, null);
  };
  if (urlHasAuthResult(window.location.hash, window.location.search)) {
    state = loadingState;
    load();
    return;
  }
  state = decide();
  if (state.session?.expires_at) {
    onFirstInput(load);
    // setTimeout overflows above 2^31-1 ms; a session that long-lived is refreshed on input anyway.
    const due = state.session.expires_at * 1000 - Date.now() - EXPIRY_MARGIN_MS - 30_000;
    if (due < 2 ** 31 - 1) setTimeout(load, Math.max(0, due));
  }
  // Until auth-js runs (it then watches storage itself), another tab's sign-in or sign-out reaches
  // this one through storage events.
  const onStorage = (e: StorageEvent) => {
    if (e.key === key || e.key === null) set(decide());
  };
  window.addEventListener('storage', onStorage);
  stopWatchingStorage = () => window.removeEventListener('storage', onStorage);
}

/** At most one confirmation a minute when the tab comes back or a server call was refused. */
export const CONFIRM_INTERVAL_MS = 60_000;
let lastConfirmed = -Infinity;
let client: GoTrueClient | null = null;

/**
 * Asks the auth service whether the stored session still stands: auth-js trusts a stored access
 * token until it expires, so an account deleted meanwhile would keep its avatar (and see every server
 * call refused) for up to an hour. The answer is judged by lib/session-end.ts; offline, the session
 * stays, as auth-js keeps it.
 */
function confirmStoredUser(auth: GoTrueClient): void {
  lastConfirmed = Date.now();
  void (async () => {
    const { data } = await auth.getSession();
    if (data.session) await auth.getUser();
  })().catch(() => {});
}

/**
 * For a caller whose server request was refused (401): asks the auth service whether the session
 * has ended (then the site signs out with the message), at most once a minute.
 */
export function confirmSession(): void {
  if (client && Date.now() - lastConfirmed >= CONFIRM_INTERVAL_MS) confirmStoredUser(client);
}

/** Called when lib/supabase.ts creates the client: from now on auth-js's events decide. */
export function connectSession(auth: GoTrueClient): void {
  if (connected) return;
  connected = true;
  stopWatchingStorage?.();
  auth.onAuthStateChange((event, session) => {
    // While a refused session is being forgotten, its last events must not bring the avatar back.
    if (ending && session && event !== 'SIGNED_IN') return;
    // A mail link's session was read from the URL: the bare '#' auth-js leaves goes too.
    if (event === 'SIGNED_IN' || event === 'PASSWORD_RECOVERY') dropEmptyFragment();
    set(fromSession(session, event));
  });
  client = auth;
  confirmStoredUser(auth); // once per page, when auth-js loads
  // And when the visitor comes back to the tab: the account may have been deleted meanwhile.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') confirmSession();
  });
}
onAuthClientCreated(connectSession);

/**
 * The auth service refused the session for good: signed out here at once (no avatar, the guard's
 * sign-in screen), with the message, then auth-js forgets the session (local scope: the server has
 * nothing left to revoke). Deferred a turn: this runs inside auth-js's own request.
 */
function endSession(auth: GoTrueClient): void {
  set({ ...empty, sessionEnded: true });
  if (ending) return;
  ending = true;
  setTimeout(() => {
    auth
      .signOut({ scope: 'local' })
      .catch(() => {})
      .finally(() => {
        ending = false;
      });
  }, 0);
}
onSessionRefused(endSession);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
const getSnapshot = () => state;
const getServerSnapshot = () => prerenderState;

/** Hides the "session has ended" message (the user dismissed it). */
export function dismissSessionEnded(): void {
  set({ ...state, sessionEnded: false });
}

/** Ends the password-recovery state (the user chose a new password or dismissed the prompt). */
export function endPasswordRecovery(): void {
  forgetRecovery();
  set({ ...state, passwordRecovery: false });
}

/**
 * The signed-in user: from the stored session at once, then from auth-js's events.
 *
 * @example
 * const { user, isAdmin, loading } = useSession();
 */
export function useSession(): SessionState {
  start(usePublicConfig());
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}

/** A function resolving to the site's auth client, for components that call auth methods. */
export function useSupabase(): () => Promise<SupabaseClient> {
  const config = usePublicConfig();
  return useCallback(() => loadSupabase(config), [config]);
}

/** For tests: forget the decision so the next useSession() reads the stored session again. */
export function resetSessionForTests(): void {
  stopWatchingStorage?.();
  state = loadingState;
  started = false;
  connected = false;
  ending = false;
  client = null;
  lastConfirmed = -Infinity;
}
