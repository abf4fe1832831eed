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
  /** The last auth event, e.g. 'PASSWORD_RECOVERY' after following a reset link. */
  event: AuthChangeEvent | null;
}

const initial: SessionState = { session: null, user: null, isAdmin: false, loading: true, event: null };

/** One store per client: auth events enter in one place and every hook reads the derived state. */
interface SessionStore {
  get(): SessionState;
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
    });
  });
  const store: SessionStore = {
    get: () => state,
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
  const state = useSyncExternalStore(store.subscribe, store.get, store.get);
  return state;
}
