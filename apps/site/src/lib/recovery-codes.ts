import type { GoTrueClient } from '@supabase/auth-js';
import { currentPublicConfig } from './public-config';

// The embedded auth's recovery codes (an Engage addition to the auth API; hosted Supabase has none):
// how many are left, a new set shown once, and one used at the second sign-in step.

/** True when the auth service offers recovery codes (the embedded one). */
export const recoveryCodesOffered = (): boolean => currentPublicConfig()?.auth.embedded === true;

async function call<T>(auth: GoTrueClient, path: string, body?: unknown): Promise<T> {
  const config = currentPublicConfig();
  const token = (await auth.getSession()).data.session?.access_token;
  if (!config?.auth.anonKey || !token) throw new Error('Sign in again, then try once more.');
  const base = config.auth.url ?? window.location.origin;
  const response = await fetch(`${base}/auth/v1/recovery-codes${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      apikey: config.auth.anonKey,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await response.json().catch(() => null)) as (T & { msg?: string; message?: string }) | null;
  if (!response.ok)
    throw new Error(json?.msg ?? json?.message ?? `The sign-in service answered ${response.status}.`);
  return json as T;
}

export const recoveryCodeStatus = (auth: GoTrueClient) =>
  call<{ remaining: number; created_at: string | null }>(auth, '');

/** A new set: the old codes stop working. The codes are in this answer only. */
export const makeRecoveryCodes = async (auth: GoTrueClient) =>
  (await call<{ codes: string[] }>(auth, '', {})).codes;

/** Uses one code at the second step: the session becomes the raised one auth-js then keeps. */
export async function redeemRecoveryCode(auth: GoTrueClient, code: string): Promise<void> {
  const session = await call<{ access_token: string; refresh_token: string }>(auth, '/verify', { code });
  const { error } = await auth.setSession(session);
  if (error) throw error;
}
