import { noteLinkArrival } from './link-arrival';

/**
 * auth-js's `detectSessionInUrl` check, with one change: a mail link's session leaves the address
 * bar in the same history entry. auth-js reads the tokens from its parsed copy of the fragment and
 * then clears it with `location.hash = ''`, which adds an entry: Back returned to the URL holding
 * `#access_token=…`. The entry is replaced here with an empty fragment first, so that
 * assignment changes nothing and adds nothing; `dropEmptyFragment` then removes the bare '#'. The
 * link's kind is noted (lib/link-arrival.ts), so the page can say what it did.
 */
export function takeSessionFromUrl(
  params: Record<string, string>,
  history: History = window.history,
): boolean {
  const callback = Boolean(params.access_token || params.error_description);
  if (params.access_token) {
    // A confirmation link signs the user in on the page it lands on: that page says so.
    noteLinkArrival(params.type);
    const url = new URL(window.location.href);
    url.hash = '';
    history.replaceState(history.state, '', `${url.href.replace(/#$/, '')}#`);
  }
  return callback;
}

/** Removes a bare '#' from the address (what auth-js leaves), in place. */
export function dropEmptyFragment(history: History = window.history): void {
  if (window.location.href.endsWith('#'))
    history.replaceState(history.state, '', window.location.href.slice(0, -1));
}
