import type { AuthChangeEvent, Session, SupabaseClient, User } from '@supabase/supabase-js';
import { useCallback, useSyncExternalStore } from 'react';
import { usePublicConfig, type PublicConfig } from './public-config';

export interface SessionState {
  session: Session | null;
  user: User | null;
  /** True when the user's app_metadata.role is 'admin' (set by the server; users cannot write it). */
  isAdmin: boolean;
  /** True until the stored session (or a confirmation link's session) has been read. */
  loading: boolean;
  /** The last auth event. */
  event: AuthChangeEvent | null;
  /** True from a password-reset link's sign-in until the password is changed or the user signs out. */
  passwordRecovery: boolean;
  /** Set when the auth client could not be loaded (e.g. a failed chunk download). */
  error: string | null;
}

const initial: SessionState = {
  session: null,
  user: null,
  isAdmin: false,
  loading: true,
  event: null,
  passwordRecovery: false,
  error: null,
};

/**
 * The site's supabase client, loaded on first use: supabase-js (about 60 kB gzipped) stays out of
 * every page's initial JavaScript and arrives while the page renders.
 */
export function loadSupabase(config: PublicConfig): Promise<SupabaseClient> {
  return import('./supabase').then((m) => m.getSupabase(config));
}

/** One store for the site: auth events enter in one place and every hook reads the derived state. */
interface SessionStore {
  get(): SessionState;
  subscribe(listener: () => void): () => void;
}

let state = initial;
let started = false;
const listeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  for (const l of listeners) l();
}

function start(config: PublicConfig) {
  if (started) return;
  started = true;
  loadSupabase(config).then(
    (client) =>
      client.auth.onAuthStateChange((event, session) => {
        set({
          session,
          user: session?.user ?? null,
          isAdmin: session?.user.app_metadata?.role === 'admin',
          loading: false,
          event,
          passwordRecovery:
            event === 'PASSWORD_RECOVERY' ||
            (state.passwordRecovery && event !== 'SIGNED_OUT' && event !== 'USER_UPDATED'),
          error: null,
        });
      }),
    (error: Error) => set({ ...initial, loading: false, error: error.message }),
  );
}

const store: SessionStore = {
  get: () => state,
  subscribe(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Ends the password-recovery state (the user chose a new password or dismissed the prompt). */
export function endPasswordRecovery(): void {
  set({ ...state, passwordRecovery: false });
}

/**
 * The signed-in user, read from the site's one supabase client.
 *
 * @example
 * const { user, isAdmin, loading } = useSession();
 */
export function useSession(): SessionState {
  start(usePublicConfig());
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** A function resolving to the site's supabase client, for components that call auth methods. */
export function useSupabase(): () => Promise<SupabaseClient> {
  const config = usePublicConfig();
  return useCallback(() => loadSupabase(config), [config]);
}
