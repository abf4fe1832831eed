import { PAGE_CONTENT_PATH, type PageContent } from '@engage/http-contract';
import { onFirstInput, type AppScript } from '@/lib/first-input';
import { recoveryPending } from '@/lib/password-recovery';
import type { PublicConfig } from '@/lib/public-config-source';
import { readStoredSession, storageKeyFor } from '@/lib/stored-session';

// A guarded page served as a static page (app/site-pages.ts: `guarded` and `islands`). Its HTML is
// the same neutral shell for everybody (marked `data-guard`): a spinner for a stored session, the
// Protected Resource screen with the auth card for a visitor without one (public/session-hint.js
// picks which shows). Then:
// - a signed-in user's page is asked of the server with their access token and put in place of the
//   shell; its widget and navigation come alive as on any static page;
// - a visitor's card is the whole app's: it loads on their first input and hydrates the card in
//   place (what they typed stays, the button they pressed is pressed again);
// - whatever the server refuses (an ended session, a second factor still to enter), and a reset
//   link's pending new password, go to the app, whose route guard and prompts say what to do.

export type GuardedOutcome =
  /** The page's content is in place: bring its islands alive. */
  | 'content'
  /** The app takes the page over (now or at the first input): leave the shell alone. */
  | 'app';

/** Adds the app's script (the stylesheet is in already: the loader brought it first). */
export function loadApp(app: AppScript | null | undefined): void {
  if (!app || document.querySelector(`script[src="${app.entry}"]`)) return;
  for (const href of app.preloads) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    link.crossOrigin = '';
    document.head.append(link);
  }
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = app.entry;
  document.head.append(script);
}

async function fetchContent(token: string): Promise<string | null> {
  const query = new URLSearchParams({ path: location.pathname });
  try {
    const response = await fetch(`${PAGE_CONTENT_PATH}?${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (!response.ok) return null;
    const body = (await response.json()) as Partial<PageContent>;
    return typeof body.html === 'string' ? body.html : null;
  } catch {
    return null; // offline: the app says so, and retries as it does
  }
}

/**
 * Decides a guarded page: puts a signed-in user's content in place, or hands the page to the app.
 * `shell` is the page's `data-guard` elements.
 */
export async function attachGuardedPage(
  shell: HTMLElement[],
  config: PublicConfig,
  app: AppScript | null | undefined,
): Promise<GuardedOutcome> {
  const stored = readStoredSession(
    window.localStorage,
    storageKeyFor(config.auth.url, location.origin),
    Date.now(),
  );
  if (stored.kind === 'none') {
    const load = () => loadApp(app);
    onFirstInput(load);
    // A pointer over the card is a head start on the press that comes next.
    for (const part of shell) part.addEventListener('pointerover', load, { once: true, passive: true });
    return 'app';
  }
  // The widget's markup holds a declarative shadow root, which only setHTMLUnsafe parses from a
  // string (innerHTML leaves it an inert <template>); a browser without it gets the app.
  const canParse = 'setHTMLUnsafe' in Element.prototype;
  // A reset link's sign-in still asks for the new password: that prompt is the app's.
  const asksPassword = stored.kind === 'valid' && recoveryPending(stored.session.user.id);
  const html =
    stored.kind === 'valid' && canParse && !asksPassword
      ? await fetchContent(stored.session.access_token)
      : null;
  const first = shell[0];
  if (html === null || !first?.isConnected) {
    loadApp(app);
    return 'app';
  }
  const parsed = document.createElement('div');
  parsed.setHTMLUnsafe(html);
  first.before(...parsed.childNodes);
  for (const part of shell) part.remove();
  first.ownerDocument.getElementById('root')?.setAttribute(GUARDED_CONTENT, '');
  // Signed out in another tab: the page goes, as the app's guard would take it away.
  const key = storageKeyFor(config.auth.url, location.origin);
  window.addEventListener('storage', (e) => {
    if ((e.key === key || e.key === null) && readStoredSession(localStorage, key, Date.now()).kind === 'none')
      location.reload();
  });
  return 'content';
}

/** On #root once a signed-in user's content is in place: signing out reloads the page (its shell). */
export const GUARDED_CONTENT = 'data-guarded-content';
