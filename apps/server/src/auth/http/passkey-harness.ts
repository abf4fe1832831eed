// Test support shared by the passkey suites (and the raw auth API posts of the auth suites): the
// embedded auth over every migration, users signed in with a password, and the WebAuthn registration
// ceremony with a software authenticator.
import type { TestDbTarget } from '@engage/db/testing';
import type { SupabaseClient } from '@supabase/supabase-js';
import { allMigrations } from '../../server.js';
import { authServerHooks } from './auth-harness.js';
import { signedIn } from './mfa-harness.js';
import type { AuthTestServer, AuthTestServerOptions } from './server-harness.js';
import { softwareAuthenticator } from './software-authenticator-harness.js';

/** The headers auth-js sends with a JSON body (API version 2024-01-01, the current error shape). */
export const authApiHeaders = (srv: Pick<AuthTestServer, 'anonKey'>) => ({
  apikey: srv.anonKey,
  'Content-Type': 'application/json',
  'X-Supabase-Api-Version': '2024-01-01',
});

/** A POST to the auth API over HTTP; a string body is sent as it is (malformed JSON), else as JSON. */
export const authPost = (
  srv: Pick<AuthTestServer, 'anonKey' | 'url'>,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(`${srv.url}/auth/v1${path}`, {
    method: 'POST',
    headers: { ...authApiHeaders(srv), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** authServerHooks over every migration (the emulator's too), as the server starts. */
export const passkeyServerContext = (target: TestDbTarget, options: AuthTestServerOptions = {}) =>
  authServerHooks(target, allMigrations(), options);

/** A confirmed user made through the admin API and signed in with the password. */
export async function passkeyUser(srv: AuthTestServer, email: string, password: string) {
  const created = await srv.service.admin.create({ email, password, email_confirm: true });
  return { id: created.id, ...(await signedIn(srv, email, password)) };
}

/** The registration ceremony through auth-js's two-step API; returns the new passkey and its key. */
export async function registerPasskey(
  srv: AuthTestServer,
  client: SupabaseClient,
  key = softwareAuthenticator(srv.origin),
) {
  const options = await client.auth.passkey.startRegistration();
  if (options.error) throw options.error;
  const verified = await client.auth.passkey.verifyRegistration({
    challengeId: options.data.challenge_id,
    credential: key.create(options.data.options) as never,
  });
  if (verified.error) throw verified.error;
  return { passkey: verified.data, key };
}
