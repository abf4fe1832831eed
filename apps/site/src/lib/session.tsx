import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { onAuthClientCreated, onSessionRefused } from './auth-client-events';
import { onFirstInput } from './first-input';
import { usePublicConfig } from './public-config';
import { createSessionStore, type SessionSource, type SessionState } from './session-store';
import type { SupabaseClient } from './supabase';

// Where the site listens for the first input; kept importable from here for its callers.
export { onFirstInput };
export { CONFIRM_INTERVAL_MS, loadSupabase } from './session-store';
export type { SessionSource, SessionState } from './session-store';

/** The page's one session store, wired to the auth client when lib/supabase.ts creates it. */
const siteSession = createSessionStore();
onAuthClientCreated(siteSession.connect);
onSessionRefused(siteSession.end);

const SessionContext = createContext<SessionSource>(siteSession);

/**
 * Gives the components below another session than the site's (component tests render a session
 * they set, ../testing/session.tsx). The site itself needs none: its store is the default.
 */
export const SessionProvider = SessionContext.Provider;

/** The session source the components read: the site's store, unless a provider gives another. */
export function useSessionSource(): SessionSource {
  return useContext(SessionContext);
}

/**
 * The signed-in user: from the stored session at once, then from auth-js's events.
 *
 * @example
 * const { user, isAdmin, loading } = useSession();
 */
export function useSession(): SessionState {
  const source = useSessionSource();
  source.start(usePublicConfig());
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getServerSnapshot);
}

/** A function resolving to the site's auth client, for components that call auth methods. */
export function useSupabase(): () => Promise<SupabaseClient> {
  const source = useSessionSource();
  const config = usePublicConfig();
  return useCallback(() => source.loadClient(config), [source, config]);
}
