import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProvider } from './app/provider';
import { AppRoutes, isGuarded, preloadPage } from './app/router';
import { replayEarlyInput, takeEarlyClicks } from './lib/first-input';
import {
  loadPublicConfig,
  readInjectedConfig,
  setCurrentPublicConfig,
  type PublicConfig,
} from './lib/public-config';
import './styles.css';

const container = document.getElementById('root') as HTMLElement;

/** Runs `fn` once the first render has committed (its effect runs after every child's). */
function Committed({ fn }: { fn: () => void }) {
  useEffect(fn, [fn]);
  return null;
}

function app(config: PublicConfig, committed: () => void = () => {}) {
  return (
    <StrictMode>
      <AppProvider config={config}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProvider>
      <Committed fn={committed} />
    </StrictMode>
  );
}

/**
 * A prerendered page (scripts/prerender.mjs) is hydrated: its markup is already on screen. The page's
 * module is loaded first so hydration does not suspend; a guarded page hydrates its neutral shell
 * at once and loads its module only if public/session-hint.js found a session.
 */
async function start(config: PublicConfig) {
  setCurrentPublicConfig(config);
  const { pathname } = window.location;
  const prerendered = container.hasAttribute('data-prerendered');
  if (!isGuarded(pathname)) await preloadPage(pathname);
  else if (document.documentElement.dataset.session !== 'none') void preloadPage(pathname);
  if (prerendered) {
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
    document.title = config.siteTitle; // `npm run dev`: Vite's page has no title filled in
    createRoot(container).render(app(config));
  }
}

const injected = readInjectedConfig();
(injected ? start(injected) : loadPublicConfig().then(start)).catch((error: Error) => {
  createRoot(container).render(
    <main role="alert" style={{ padding: '2rem', fontFamily: 'system-ui' }}>
      <h1>Engage cannot reach its server</h1>
      <p>{error.message} Check that the server is running, then reload the page.</p>
    </main>,
  );
});
