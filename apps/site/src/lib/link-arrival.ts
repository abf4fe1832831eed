import { useSyncExternalStore } from 'react';

/**
 * What a mail link just did, for the page it lands on to say so: 'confirmed' after a sign-up's
 * confirmation link (its session comes with `type=signup`). Set once, when auth-js reads the link's
 * session from the URL (lib/url-session.ts); forgotten when dismissed or on the next sign-out.
 */
export type LinkArrival = 'confirmed' | null;

let arrival: LinkArrival = null;
const listeners = new Set<() => void>();

function set(next: LinkArrival) {
  if (next === arrival) return;
  arrival = next;
  for (const listener of listeners) listener();
}

/** Notes the link's kind: GoTrue's `type` of the session it put in the URL. */
export function noteLinkArrival(type: string | undefined): void {
  if (type === 'signup') set('confirmed');
}

export const dismissLinkArrival = (): void => set(null);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export function useLinkArrival(): LinkArrival {
  return useSyncExternalStore(
    subscribe,
    () => arrival,
    () => null,
  );
}
