import type { GoTrueClient } from '@supabase/auth-js';

/**
 * The one hand-off between the lazily loaded auth client (lib/supabase.ts) and the session store
 * (lib/session.tsx): the store says what to do with a new client, the client module reports each one.
 * Kept apart so neither module imports the other (the client stays out of the first paint's bundle).
 */
type ClientListener = (auth: GoTrueClient) => void;

let listener: ClientListener | null = null;
let refusedListener: ClientListener | null = null;
const created: GoTrueClient[] = [];

/** Called by the session store once; clients created before it are handed over at once. */
export function onAuthClientCreated(next: ClientListener): void {
  listener = next;
  for (const auth of created.splice(0)) next(auth);
}

/** Called by lib/supabase.ts for every client it builds. */
export function authClientCreated(auth: GoTrueClient): void {
  if (listener) listener(auth);
  else created.push(auth);
}

/** Called by the session store once: what to do when the auth service refuses a client's session. */
export function onSessionRefused(next: ClientListener): void {
  refusedListener = next;
}

/** Called by lib/supabase.ts when the auth service answered that the session has ended (lib/session-end.ts). */
export function sessionRefused(auth: GoTrueClient): void {
  refusedListener?.(auth);
}
