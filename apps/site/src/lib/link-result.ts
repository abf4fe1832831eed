import { useEffect } from 'react';

/** What a mail link's redirect puts in the fragment besides a session: GoTrue's error, or its message. */
const RESULT_PARAMS = ['error', 'error_code', 'error_description', 'message'];

/**
 * The URL without a mail link's error or message in its fragment, or null when there is nothing to
 * clear. A fragment carrying a session (access_token) is auth-js's to read and clear, never ours.
 */
export function urlWithoutLinkResult(href: string): string | null {
  const url = new URL(href);
  const params = new URLSearchParams(url.hash.slice(1));
  if (params.has('access_token') || !RESULT_PARAMS.some((p) => params.has(p))) return null;
  url.hash = '';
  return url.href.replace(/#$/, '');
}

/**
 * Once the component that shows a mail link's error has read it (in its state), the fragment leaves
 * the address bar: a reload, a bookmark or a shared URL does not show the old error again. The
 * history entry is replaced, not added, and keeps the router's state. Not while `enabled` is false
 * (a card hydrated in a prerendered shell, which reads no result: it is shown again once decided).
 */
export function useClearLinkResult(enabled = true): void {
  useEffect(() => {
    if (!enabled) return;
    const next = urlWithoutLinkResult(window.location.href);
    if (next) window.history.replaceState(window.history.state, '', next);
  }, [enabled]);
}
