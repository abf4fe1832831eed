import type { Session } from '@supabase/auth-js';
import type { AssuranceDemand } from '@/lib/assurance';

/** The `aal` claim of an access token (auth-js's getAuthenticatorAssuranceLevel reads the same). */
export function tokenAal(accessToken: string): string | null {
  const payload = accessToken.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as { aal?: unknown };
    return typeof claims.aal === 'string' ? claims.aal : null;
  } catch {
    return null;
  }
}

/**
 * True when the user has a verified factor but the session has not used it yet (current level aal1,
 * next level aal2): the guard then asks for the code before any protected content. Decided from the
 * session alone, as auth-js's getAuthenticatorAssuranceLevel does, so it works on the stored session
 * before auth-js loads.
 */
export function needsSecondFactor(session: Session | null): boolean {
  if (!session) return false;
  const verified = session.user.factors?.some((f) => f.status === 'verified') ?? false;
  return verified && tokenAal(session.access_token) !== 'aal2';
}

/**
 * The step the guard shows before the page: the code when the session needs its second factor (as
 * above) or the server refused an aal1 session with 403 `mfa_required` (it knows of a factor the
 * stored session does not, or the site missed it); the enrolment screen when the server asked an
 * admin to set up an authenticator app. An aal2 session answers both.
 */
export function assuranceStep(session: Session | null, demand: AssuranceDemand): 'code' | 'enrol' | null {
  if (!session) return null;
  if (needsSecondFactor(session)) return 'code';
  if (!demand || tokenAal(session.access_token) === 'aal2') return null;
  return demand;
}
