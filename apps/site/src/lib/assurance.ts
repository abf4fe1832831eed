import { useSyncExternalStore } from 'react';

/**
 * What the server last asked of this session before it answers a privileged request:
 * - 'code': 403 `mfa_required`, the account has an authenticator app and this session has not used
 *   it (aal1): the route guard shows the code step, then the page (and its requests) again;
 * - 'enrol': 403 `mfa_enrollment_required` (ADMIN_REQUIRE_MFA), an admin without an authenticator
 *   app: the guard sends them to set one up in their profile.
 * The server decides; this only turns its answer into the right screen.
 */
export type AssuranceDemand = 'code' | 'enrol' | null;

const CODES: Record<string, AssuranceDemand> = { mfa_required: 'code', mfa_enrollment_required: 'enrol' };

let demand: AssuranceDemand = null;
const listeners = new Set<() => void>();

function set(next: AssuranceDemand) {
  if (next === demand) return;
  demand = next;
  for (const l of listeners) l();
}

/** Forgets the demand (the code was entered, or the user was sent to enrol). */
export const clearAssuranceDemand = (): void => set(null);

/** The demand of a refused answer: a 403 whose JSON `error` (or GoTrue-style `code`) names one. */
export async function assuranceDemandOf(response: Response): Promise<AssuranceDemand> {
  if (response.status !== 403) return null;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown; code?: unknown } | null;
  const code = typeof body?.error === 'string' ? body.error : body?.code;
  return typeof code === 'string' ? (CODES[code] ?? null) : null;
}

/** The server asked for the second factor or an enrolment (lib/engage-api.ts watches its answers). */
export const demandAssurance = (asked: Exclude<AssuranceDemand, null>): void => set(asked);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export function useAssuranceDemand(): AssuranceDemand {
  return useSyncExternalStore(
    subscribe,
    () => demand,
    () => null,
  );
}

/** The demand as it stands (for code outside React, and tests). */
export const assuranceDemandNow = (): AssuranceDemand => demand;
