import { attachSiteMenu } from '@/app/site-menu';
import { onFirstInput, replayEarlyInput, takeEarlyClicks } from '@/lib/first-input';
import { ISLANDS } from '@/lib/island-names';
import { readInjectedConfig, type PublicConfig } from '@/lib/public-config-source';
import { attachAccount } from './account';
import { attachGuardedPage } from './guarded-page';

// The entry of a static page (a site page marked `islands`, app/site-pages.ts): the prerendered
// HTML stays as it is, and only what is interactive comes alive: the navigation's menu and account
// link now, in plain DOM code; the voice widget (React, or whatever its island file makes it) and
// the toasts at the visitor's first input. No router: a link loads its page in full. The inline
// loader (scripts/prerender/loader.mjs) brings the whole app instead when a mail link's result or
// an expired session needs auth-js at once. A guarded page first gets its content
// (./guarded-page.ts).

/**
 * Brings a part of the page to life: `mount` is given the part right after the buttons pressed in it
 * so far are taken (from then on the part handles its own), and once it has mounted they are
 * pressed again. Taken only then, not at the input that asked for the part: that very click comes
 * after the pointer's press that started the download.
 */
async function live(part: HTMLElement, mount: () => Promise<unknown> | void): Promise<void> {
  const clicks = takeEarlyClicks(part);
  await mount();
  replayEarlyInput(clicks, part);
}

const warn = (error: unknown) => console.warn('A part of the page failed to load:', error);

function attachWidget(container: HTMLElement, config: PublicConfig) {
  onFirstInput(() => {
    import('@/app/islands/widget-island')
      .then((m) => live(container, () => m.mountWidgetIsland(container, config)))
      .catch(warn);
    import('./react-parts').then((m) => m.mountToasts(), warn);
  });
}

/** The navigation and the widget, as on every static page. */
function attachIslands(root: HTMLElement, config: PublicConfig) {
  const nav = root.querySelector<HTMLElement>('nav');
  const button = root.querySelector<HTMLButtonElement>('.site-menu-button');
  const panel = button && document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (nav && button && panel)
    void live(nav, () => {
      attachSiteMenu(button, panel);
      attachAccount(nav, config);
    }).catch(warn);
  const widget = root.querySelector<HTMLElement>(`[data-island="${ISLANDS.widget}"]`);
  if (widget) attachWidget(widget, config);
}

async function start(root: HTMLElement, config: PublicConfig) {
  // A guarded page's shell: its content comes from the server, or the app takes the page over.
  const shell = [...root.querySelectorAll<HTMLElement>('[data-guard]')];
  const outcome = shell.length
    ? await attachGuardedPage(shell, config, window.__engageEarly?.app)
    : 'content';
  if (outcome === 'content') attachIslands(root, config);
  // For tests and tools: the page now answers input (a button pressed before is pressed again once
  // its part has loaded).
  root.setAttribute('data-hydrated', '');
}

const root = document.getElementById('root');
const config = readInjectedConfig();
if (root && config) void start(root, config).catch(warn);
