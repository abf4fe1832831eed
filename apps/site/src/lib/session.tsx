import type { AuthChangeEvent, Session, SupabaseClient, User } from '@supabase/supabase-js';
import { useSyncExternalStore } from 'react';
import { usePublicConfig } from './public-config';
import { getSupabase } from './supabase';

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
}

const initial: SessionState = {
  session: null,
  user: null,
  isAdmin: false,
  loading: true,
  event: null,
  passwordRecovery: false,
};

/** One store per client: auth events enter in one place and every hook reads the derived state. */
interface SessionStore {
  get(): SessionState;
  /** Ends the password-recovery state (the user chose a new password or dismissed the prompt). */
  endPasswordRecovery(): void;
  subscribe(listener: () => void): () => void;
}

const stores = new WeakMap<SupabaseClient, SessionStore>();

function storeFor(client: SupabaseClient): SessionStore {
  const existing = stores.get(client);
  if (existing) return existing;
  let state = initial;
  const listeners = new Set<() => void>();
  const set = (next: SessionState) => {
    state = next;
    for (const l of listeners) l();
  };
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
    });
  });
  const store: SessionStore = {
    get: () => state,
    endPasswordRecovery: () => set({ ...state, passwordRecovery: false }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  stores.set(client, store);
  return store;
}

/** The session store of the site's client (for code outside React). */
export const sessionStore = (client: SupabaseClient) => storeFor(client);

/**
 * The signed-in user, read from the site's one supabase client.
 *
 * @example
 * const { user, isAdmin, loading } = useSession();
 */
export function useSession(): SessionState {
  const config = usePublicConfig();
  const store = storeFor(getSupabase(config));
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** The site's supabase client, for components that call auth methods. */
export function useSupabase(): SupabaseClient {
  return getSupabase(usePublicConfig());
}
