import { notFoundPage, sitePages, type SitePage } from './site-pages';

// What the build prerenders (scripts/prerender.mjs), derived from the site's one page table
// (site-pages.ts), and the checks that what it wrote is exactly that.

/** One page the build writes to dist/_pages/<name>.html. */
export interface PlannedPage {
  /** The route rendered (the not-found page's is its path mark). */
  route: string;
  name: string;
  /**
   * The route module whose chunks the page preloads (its Vite manifest key), or null: a guarded
   * page's shell needs no page code, and a signed-out visitor never does.
   */
  module: string | null;
  /** Served with the islands entry (src/app/islands/main.ts) instead of the app's. */
  islands: boolean;
  /**
   * A guarded static page: its content is written apart, to dist/_pages/content/<name>.html, which
   * the server sends only to a signed-in caller (GET /api/page-content).
   */
  content: boolean;
}

/** The file of a page in dist/_pages/ (without .html). */
const pageName = (route: string) => (route === '/' ? 'index' : route.slice(1).replaceAll('/', '-'));

const moduleKey = (module: string) => `src/app/routes/${module}.tsx`;

export function prerenderPlan(pages: readonly SitePage[] = sitePages): PlannedPage[] {
  const planned = pages
    .filter((p) => p.prerendered)
    .map((p) => ({
      route: p.path,
      name: pageName(p.path),
      module: p.guarded ? null : moduleKey(p.module),
      islands: p.islands,
      content: p.guarded && p.islands,
    }));
  return [
    ...planned,
    {
      route: notFoundPage.pathMark,
      name: notFoundPage.module,
      module: moduleKey(notFoundPage.module),
      islands: false,
      content: false,
    },
  ];
}

/**
 * The route manifest the server reads (apps/server/src/site/site-routes.ts): every route of
 * the site (any other path is a 404), the prerendered page of each that has one, the content of each
 * guarded static page (dist/_pages/content/<name>.html), the not-found page.
 */
export function routeManifest(plan: readonly PlannedPage[], pages: readonly SitePage[] = sitePages) {
  const prerendered = plan.filter((p) => p.route !== notFoundPage.pathMark);
  return {
    routes: pages.map((p) => p.path.toLowerCase()),
    pages: Object.fromEntries(prerendered.map((p) => [p.route, p.name])),
    content: Object.fromEntries(prerendered.filter((p) => p.content).map((p) => [p.route, p.name])),
    notFound: { page: notFoundPage.module, pathMark: notFoundPage.pathMark },
  };
}

/**
 * Throws unless dist/_pages/ holds exactly the planned pages: one missing would be served as the
 * SPA's empty index.html; one extra (a page of an older build) would never be served, or worse, be
 * served for a route that is gone.
 */
export function checkWrittenPages(plan: readonly PlannedPage[], files: readonly string[]): void {
  const expected = new Set(plan.map((p) => `${p.name}.html`));
  const written = new Set(files.filter((f) => f.endsWith('.html')));
  const missing = [...expected].filter((f) => !written.has(f));
  const extra = [...written].filter((f) => !expected.has(f));
  const problems = [
    missing.length ? `missing: ${missing.join(', ')}` : '',
    extra.length ? `not pages of the site: ${extra.join(', ')}` : '',
  ].filter(Boolean);
  if (problems.length)
    throw new Error(`dist/_pages/ does not match the site's pages (${problems.join('; ')}).`);
}
