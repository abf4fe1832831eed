import { paths } from '@/config/paths';

/** The route modules under src/app/routes/, by file name. */
export type RouteModuleName =
  | 'home'
  | 'ediscovery'
  | 'onboarding'
  | 'kb-import'
  | 'conversations'
  | 'admin'
  | 'profile'
  | 'accept-invite'
  | 'sign-in'
  | 'sign-up'
  | 'not-found';

/**
 * One page of the site. This table is the one list of them: the router makes its routes from it
 * (router.tsx), and the build prerenders and lists them from it (scripts/prerender.mjs writes
 * dist/_pages/routes.json, by which the server answers any other path 404).
 */
export interface SitePage {
  path: string;
  /** Its route module (src/app/routes/<module>.tsx), which exports `Component`. */
  module: RouteModuleName;
  /** Behind the route guard (sign-in required): its HTML is the same neutral shell for all. */
  guarded: boolean;
  /**
   * Written to dist/_pages/ at build time. A guarded page's HTML is its neutral shell; a public
   * page's is the page itself. Pages left out are served index.html and render in the browser.
   */
  prerendered: boolean;
  /**
   * A static page whose interactive parts hydrate alone (src/app/islands/main.ts: the voice widget, the
   * account link and the navigation's menu) instead of the whole app; its links load the next page.
   */
  islands: boolean;
}

const page = (
  path: string,
  module: RouteModuleName,
  { guarded = false, prerendered = true, islands = false } = {},
): SitePage => ({ path, module, guarded, prerendered, islands });

export const sitePages: readonly SitePage[] = [
  page(paths.home.path, 'home', { islands: true }),
  // Public pages besides home: an invitation's landing page (its token is in the URL, so
  // its HTML would only be a spinner), sign-in and sign-up.
  page('/accept-invite', 'accept-invite', { prerendered: false }),
  page(paths.signIn.path, 'sign-in'),
  page(paths.signUp.path, 'sign-up'),
  page(paths.ediscovery.path, 'ediscovery', { guarded: true, islands: true }),
  page(paths.onboarding.path, 'onboarding', { guarded: true, islands: true }),
  page(paths.kbImport.path, 'kb-import', { guarded: true }),
  page(paths.conversations.path, 'conversations', { guarded: true }),
  page(paths.admin.path, 'admin', { guarded: true }),
  page('/profile', 'profile', { guarded: true, prerendered: false }),
];

/** The page every other path gets (404), prerendered at a mark the server replaces with the path. */
export const notFoundPage = { module: 'not-found', pathMark: '/\uE002' } as const satisfies {
  module: RouteModuleName;
  pathMark: string;
};

/** Every path the site renders a page of its own for. */
export const sitePaths: readonly string[] = sitePages.map((p) => p.path);
