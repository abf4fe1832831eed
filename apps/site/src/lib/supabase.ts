import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { PublicConfig } from './public-config';

let client: SupabaseClient | null = null;
let clientKey = '';

/**
 * The site's one supabase client, configured from /config.json: the embedded auth of this server
 * (URL = this origin) or hosted Supabase. The session persists in localStorage across reloads,
 * refreshes itself, and is picked up from a confirmation link's URL fragment.
 */
export function getSupabase(config: PublicConfig): SupabaseClient {
  const url = config.auth.url ?? window.location.origin;
  const anonKey = config.auth.anonKey;
  if (!anonKey) throw new Error('The server did not provide an auth key in /config.json.');
  const key = `${url} ${anonKey}`;
  if (!client || clientKey !== key) {
    client = createClient(url, anonKey, {
      auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true, flowType: 'implicit' },
    });
    clientKey = key;
  }
  return client;
}

/** The current access token (refreshed when close to expiry), or null when nobody is signed in. */
export async function getAccessToken(): Promise<string | null> {
  if (!client) return null;
  const { data } = await client.auth.getSession();
  return data.session?.access_token ?? null;
}

/** For tests: forget the client so the next getSupabase() builds a new one. */
export function resetSupabaseForTests(): void {
  client = null;
  clientKey = '';
}
