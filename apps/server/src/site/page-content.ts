// GET /api/page-content: a guarded static page's content (the site's build writes it apart, to
// dist/_pages/content/<name>.html, never into a page's HTML), for a signed-in caller only. The
// site's islands ask for it with the caller's access token and put it in place of the page's shell
// (apps/site/src/app/islands/guarded-page.ts).
import path from 'node:path';
import { PAGE_CONTENT_PATH, pageContentQuerySchema, type PageContent } from '@engage/http-contract';
import { Hono } from 'hono';
import { errorBody } from '../platform/http/edge.js';
import { requireUser, type AuthEnv, type VerifyAccessToken } from '../platform/http/require-auth.js';
import { readQuery } from '../platform/json-body.js';
import { pageCache } from './page-cache.js';
import type { PublicConfig } from './public-config.js';
import { normaliseRoute, siteRoutesReader } from './site-routes.js';

export interface PageContentOptions {
  verify: VerifyAccessToken;
  /** Filled into the content as into every page (site/page-fill.ts). */
  publicConfig: PublicConfig;
}

export function pageContentRoute(siteDir: string, options: PageContentOptions): Hono<AuthEnv> {
  const root = path.resolve(siteDir);
  const readManifest = siteRoutesReader(root);
  const contents = pageCache(options.publicConfig);
  const noPage = (route: string) =>
    errorBody(404, `${route} has no content to send: it is not a guarded page.`);
  // The caller is checked first: without a session no answer tells which pages exist.
  return new Hono<AuthEnv>().get(PAGE_CONTENT_PATH, requireUser(options.verify), async (c) => {
    const query = readQuery(c, pageContentQuerySchema);
    if (!query.ok) return query.response;
    const route = normaliseRoute(query.data.path);
    let name: string | undefined;
    try {
      name = (await readManifest())?.content?.[route];
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return c.json(errorBody(503, `The site cannot be served: ${reason}`), 503);
    }
    const page = name ? await contents(path.join(root, '_pages', 'content', `${name}.html`)) : null;
    if (!page) return c.json(noPage(route), 404);
    const body: PageContent = { html: page.html };
    // The content is the caller's to see, not a shared cache's.
    return c.json(body, 200, { 'Cache-Control': 'private, no-store' });
  });
}
