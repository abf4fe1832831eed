import type { AuthChangeEvent, GoTrueClient, Session, User } from '@supabase/auth-js';
import { onFirstInput } from './first-input';
import { forgetRecovery, recoveryPending, rememberRecovery } from './password-recovery';
import type { PublicConfig } from './public-config';
import {
  EXPIRY_MARGIN_MS,
  isAdminUser,
  readStoredSession,
  storageKeyFor,
  urlHasAuthResult,
} from './stored-session';
import type { SupabaseClient } from './supabase';
import { dropEmptyFragment } from './url-session';

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

/**
 * What the session hooks read (lib/session.tsx): the site's store below, or in a component test a
 * session the test sets (../testing/session.tsx).
 */
export interface SessionSource {
  /** Starts deciding who is signed in, once; called by every hook with the page's configuration. */
  start(config: PublicConfig): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): SessionState;
  /** The state a prerendered page and its hydration see. */
  getServerSnapshot(): SessionState;
  /** The auth client, for the calls a component makes (sign-in, factors, sign-out). */
  loadClient(config: PublicConfig): Promise<SupabaseClient>;
  /** For a caller whose server request was refused (401): has the session ended? (at most once a minute) */
  confirm(): void;
  /** Hides the "session has ended" message (the user dismissed it). */
  dismissEnded(): void;
  /** Ends the password-recovery state (the user chose a new password or dismissed the prompt). */
  endPasswordRecovery(): void;
}

export const emptySession: SessionState = {
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
const loadingState: SessionState = { ...emptySession, loading: true };
/** What the server renders and what hydration sees first. */
const prerenderState: SessionState = { ...emptySession, loading: true, prerender: true };

/** At most one confirmation a minute when the tab comes back or a server call was refused. */
export const CONFIRM_INTERVAL_MS = 60_000;

/**
 * The site's auth client, loaded on first need: auth-js (about 30 kB gzipped) stays out of every
 * landing page's JavaScript before the first input. Loading it connects it to the store.
 */
export function loadSupabase(config: PublicConfig): Promise<SupabaseClient> {
  return import('./supabase').then((m) => m.getSupabase(config));
}

/**
 * Asks the auth service whether the stored session still stands: auth-js trusts a stored access
 * token until it expires, so an account deleted meanwhile would keep its avatar (and see every
 * server call refused) for up to an hour. The answer is judged by lib/session-end.ts; offline, the
 * session stays, as auth-js keeps it.
 */
function askWhetherSessionStands(auth: GoTrueClient): void {
  void (async () => {
    const { data } = await auth.getSession();
    if (data.session) await auth.getUser();
  })().catch(() => {});
}

export interface SiteSessionStore extends SessionSource {
  /** lib/supabase.ts created the auth client: from now on auth-js's events decide. */
  connect(auth: GoTrueClient): void;
  /**
   * The auth service refused the session for good: signed out here at once (no avatar, the guard's
   * sign-in screen), with the message, then auth-js forgets the session.
   */
  end(auth: GoTrueClient): void;
}

/**
 * The signed-in user, decided from the stored session synchronously, then from auth-js once it is
 * loaded. One per page (lib/session.tsx); tests of the store itself make their own.
 */
export function createSessionStore(): SiteSessionStore {
  let state: SessionState = loadingState;
  let started = false;
  let connected = false;
  /** True from the auth service's refusal of the session until auth-js has forgotten it. */
  let ending = false;
  let stopWatchingStorage: (() => void) | null = null;
  let lastConfirmed = -Infinity;
  let client: GoTrueClient | null = null;
  const listeners = new Set<() => void>();

  function set(next: SessionState) {
    state = next;
    for (const l of listeners) l();
  }

  /**
   * Whether the new password is still to be asked for: from a reset link's sign-in until the
   * password is set (USER_UPDATED), the user signs out or dismisses the prompt; across reloads too
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
      ...emptySession,
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
   * - a mail link's result in the URL, or a stored session that expired (or is about to): now, and
   *   the guard shows its spinner until auth-js has refreshed or refused it;
   * - a valid stored session: on the first input, or shortly before it expires, whichever comes
   *   first; the user is signed in meanwhile (auth-js itself trusts a stored session until it expires);
   * - no session: when the visitor signs in (the auth card loads it).
   */
  function start(config: PublicConfig) {
    if (started || typeof window === 'undefined') return;
    started = true;
    const load = () => {
      loadSupabase(config).catch((error: Error) => set({ ...emptySession, error: error.message }));
    };
    const key = storageKeyFor(config.auth.url, window.location.origin);
    const decide = (): SessionState => {
      const stored = readStoredSession(window.localStorage, key, Date.now());
      if (stored.kind === 'none') return emptySession;
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

  function confirmStoredUser(auth: GoTrueClient): void {
    lastConfirmed = Date.now();
    askWhetherSessionStands(auth);
  }

  const confirm = () => {
    if (client && Date.now() - lastConfirmed >= CONFIRM_INTERVAL_MS) confirmStoredUser(client);
  };

  return {
    start,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => state,
    getServerSnapshot: () => prerenderState,
    loadClient: loadSupabase,
    confirm,
    dismissEnded: () => set({ ...state, sessionEnded: false }),
    endPasswordRecovery() {
      forgetRecovery();
      set({ ...state, passwordRecovery: false });
    },
    connect(auth) {
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
        if (document.visibilityState === 'visible') confirm();
      });
    },
    end(auth) {
      set({ ...emptySession, sessionEnded: true });
      if (ending) return;
      ending = true;
      // Deferred a turn: this runs inside auth-js's own request. Local scope: the server has nothing
      // left to revoke.
      setTimeout(() => {
        auth
          .signOut({ scope: 'local' })
          .catch(() => {})
          .finally(() => {
            ending = false;
          });
      }, 0);
    },
  };
}
