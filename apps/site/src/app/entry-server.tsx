import { StrictMode, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { getAssistant } from '@/features/landing/assistants';
import type { PublicConfig } from '@/lib/public-config';
import { documentTitle } from './document-title';
import { AppProvider } from './provider';
import { AppRoutes, GuardedContent } from './router';

/** What the build prerenders and lists, from the site's page table (scripts/prerender.mjs). */
export { checkWrittenPages, prerenderPlan, routeManifest } from './prerender-plan';

/**
 * Renders a page's markup at build time (scripts/prerender.mjs), waiting for its lazy route module.
 * The owner's title and domain are marks the server replaces, HTML-escaped, when it serves the page
 * (apps/server/src/site/static-site.ts): private-use characters, which letter-spacing keeps. The
 * domain's is two, so the server tells its spaced form (the landing title's text, '\uE000 \uE003')
 * from its whole one (the title's accessible name).
 */
export const MARKS = { siteTitle: '\uE001', ownerDomain: '\uE000\uE003' } as const;

const config: PublicConfig = {
  siteTitle: MARKS.siteTitle,
  ownerDomain: MARKS.ownerDomain,
  auth: { url: null, anonKey: null, embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: null, serverHoldsPrivateKey: true, embedded: true },
};

async function markup(url: string, page: ReactNode): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <AppProvider config={config}>
        <StaticRouter location={url}>{page}</StaticRouter>
      </AppProvider>
    </StrictMode>,
  );
  return new Response(prelude).text();
}

export const render = (url: string): Promise<string> => markup(url, <AppRoutes />);

/**
 * A guarded page's content, without the navigation (the server sends it to a signed-in caller of the
 * static page, apps/server/src/site/page-content.ts; it is never part of a page's HTML).
 */
export const renderContent = (url: string): Promise<string> => markup(url, <GuardedContent path={url} />);

/**
 * The image a guarded landing page paints full-screen behind its content (public, like every file of
 * public/), or null: the prerendered shell shows it while the stored session is being confirmed.
 */
export function guardedArt(route: string): string | null {
  const key = route === '/ediscovery' ? 'ediscovery' : route === '/onboarding' ? 'onboarding' : null;
  if (!key) return null;
  const { background } = getAssistant(key, config);
  return background.kind === 'image' ? background.src : null;
}

/** A page's document title, with the owner's title as its mark (the server fills it in). */
export const pageTitle = (route: string): string => documentTitle(route, MARKS.siteTitle);
