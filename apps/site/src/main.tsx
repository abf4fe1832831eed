import { StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { loadConfigInto, messageOf, StartFailure } from './app/boot-screens';
import { AppProvider } from './app/provider';
import { AppRoutes, isGuarded, preloadPage } from './app/router';
import { preloadAuthCard } from './features/auth/components/route-guard';
import { replayEarlyInput, takeEarlyClicks } from './lib/first-input';
import {
  loadPublicConfig,
  readInjectedConfig,
  setCurrentPublicConfig,
  type PublicConfig,
} from './lib/public-config';
import './styles.css';

const container = document.getElementById('root') as HTMLElement;

/**
 * Runs `fn` once the first render has committed (its effect runs after every child's). A wrapper,
 * not a sibling: a sibling would change every useId below from the server's, so the hydrated ids
 * (a label's `for`, a tab's `aria-controls`) would no longer match those React renders next.
 */
function Committed({ fn, children }: { fn: () => void; children: ReactNode }) {
  useEffect(fn, [fn]);
  return children;
}

function app(config: PublicConfig, committed: () => void = () => {}) {
  return (
    <StrictMode>
      <Committed fn={committed}>
        <AppProvider config={config}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppProvider>
      </Committed>
    </StrictMode>
  );
}

/**
 * A prerendered page (scripts/prerender.mjs) is hydrated: its markup is already on screen. The page's
 * module is loaded first so hydration does not suspend; a guarded page hydrates its neutral shell
 * at once and loads its module only if public/session-hint.js found a session (else the auth card's,
 * which its shell holds). A page whose
 * configuration had to be fetched renders into the root that showed the loading state.
 */
async function start(config: PublicConfig, root?: Root) {
  setCurrentPublicConfig(config);
  const { pathname } = window.location;
  const prerendered = container.hasAttribute('data-prerendered');
  if (!isGuarded(pathname)) await preloadPage(pathname);
  else if (document.documentElement.dataset.session !== 'none') void preloadPage(pathname);
  // The shell's auth card is hydrated in place, with whatever the visitor typed into it.
  else if (prerendered && !root) await preloadAuthCard().catch(() => {});
  if (prerendered && !root) {
    // The focus and the buttons clicked between the first paint and now are replayed once hydrated.
    const clicks = takeEarlyClicks();
    hydrateRoot(
      container,
      app(config, () => {
        // For tests and tools: the prerendered page now answers like the app.
        container.setAttribute('data-hydrated', '');
        replayEarlyInput(clicks, container);
      }),
    );
  } else {
    (root ?? createRoot(container)).render(app(config));
  }
}

// The server writes the configuration into the page; without it (`npm run dev`) it is fetched, with
// a loading state and, when that fails, an error page that can try again.
const injected = readInjectedConfig();
let fetchedRoot: Root | undefined;
const started = injected
  ? start(injected)
  : loadConfigInto((fetchedRoot = createRoot(container)), () => loadPublicConfig()).then((config) =>
      start(config, fetchedRoot),
    );
started.catch((error: unknown) => {
  (fetchedRoot ?? createRoot(container)).render(<StartFailure detail={messageOf(error)} />);
});
