// Test support for MFA over HTTP: a clock the auth service and the authenticator app share, and
// the steps a user takes with supabase-js.
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import * as OTPAuth from 'otpauth';
import type { AuthTestServer } from './server-harness.js';

export interface TestClock {
  now: () => number;
  /** Moves time on, e.g. 30 s for the authenticator app's next code. */
  advance(ms: number): void;
}

export function testClock(start = Date.now()): TestClock {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}

/** A fresh client signed in with the password alone (aal1), and its access token. */
export async function signedIn(srv: AuthTestServer, email: string, password: string) {
  const client = srv.client();
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
  return { client, token: data.session.access_token };
}

/**
 * Enrols a TOTP factor and verifies it with the app's current code (the client's session is then
 * aal2). `code()` is the app's code at the clock's time; advance the clock 30 s before using it
 * again, as a code is accepted once.
 */
export async function enrollTotp(client: SupabaseClient, clock: TestClock, friendlyName = 'app') {
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName });
  if (enrolled.error) throw enrolled.error;
  const { id: factorId, totp } = enrolled.data as { id: string; totp: { secret: string } };
  const app = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(totp.secret) });
  const code = () => app.generate({ timestamp: clock.now() });
  const verified = await client.auth.mfa.challengeAndVerify({ factorId, code: code() });
  if (verified.error) throw verified.error;
  return { factorId, code, secret: totp.secret, session: verified.data as unknown as Session };
}
