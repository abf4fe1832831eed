import { AuthClient, type GoTrueClient } from '@supabase/auth-js';
import { authClientCreated, sessionRefused } from './auth-client-events';
import { currentPublicConfig, type PublicConfig } from './public-config';
import { watchSessionRefusals } from './session-end';
import { storageKeyFor } from './stored-session';
import { takeSessionFromUrl } from './url-session';

/**
 * The site uses only Supabase Auth, so it builds the auth client (`@supabase/auth-js`, which
 * supabase-js wraps) without the rest of supabase-js. Call sites keep supabase-js's shape:
 * `client.auth.signInWithPassword(...)`.
 */
export interface SupabaseClient {
  auth: GoTrueClient;
}

let client: SupabaseClient | null = null;
let clientKey = '';

/**
 * The site's one auth client, configured from /config.json: the embedded auth of this server
 * (URL = this origin) or hosted Supabase. As supabase-js set it up: the session persists in
 * localStorage under supabase-js's key, refreshes itself, and is picked up from a mail link's URL
 * fragment. Creating it connects the session store (lib/session.tsx) to its events; an answer that
 * ends the session (a deleted user, a revoked session: lib/session-end.ts) is reported to the store.
 */
export function getSupabase(config: PublicConfig): SupabaseClient {
  const url = config.auth.url ?? window.location.origin;
  const anonKey = config.auth.anonKey;
  if (!anonKey) throw new Error('The server did not provide an auth key in /config.json.');
  const key = `${url} ${anonKey}`;
  if (!client || clientKey !== key) {
    // The global fetch is looked up per request (tests replace it), as auth-js itself does.
    const watched = watchSessionRefusals(
      () => globalThis.fetch.bind(globalThis),
      () => sessionRefused(auth),
    );
    const auth: GoTrueClient = new AuthClient({
      url: `${url.replace(/\/+$/, '')}/auth/v1`,
      fetch: watched,
      headers: { Authorization: `Bearer ${anonKey}`, apikey: anonKey },
      storageKey: storageKeyFor(config.auth.url, window.location.origin),
      persistSession: true,
      autoRefreshToken: true,
      // A mail link's tokens leave the address without a history entry of their own.
      detectSessionInUrl: (_url, params) => takeSessionFromUrl(params),
      flowType: 'implicit',
    });
    client = { auth };
    clientKey = key;
    authClientCreated(auth);
  }
  return client;
}

/** The current access token (refreshed when close to expiry), or null when nobody is signed in. */
export async function getAccessToken(): Promise<string | null> {
  const config = currentPublicConfig();
  const current = client ?? (config?.auth.anonKey ? getSupabase(config) : null);
  if (!current) return null;
  const { data } = await current.auth.getSession();
  return data.session?.access_token ?? null;
}

/** For tests: forget the client so the next getSupabase() builds a new one. */
export function resetSupabaseForTests(): void {
  client = null;
  clientKey = '';
}
