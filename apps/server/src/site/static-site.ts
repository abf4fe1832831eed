import path from 'node:path';
import { Hono, type Context } from 'hono';
import { acceptsBrotli, brotliCache } from './brotli-cache.js';
import {
  cacheControl,
  contentType,
  EMBED_HEADERS,
  HTML_TYPE,
  isCompressible,
  isEmbedFile,
  readIfFile,
} from './files.js';
import { pageCache, type CachedPage } from './page-cache.js';
import { escapeHtml } from './page-fill.js';
import type { PublicConfig } from './public-config.js';
import { normaliseRoute, siteRoutesReader, type SiteRoutes } from './site-routes.js';

export { escapeHtml, fillPage, inlineScriptHashes } from './page-fill.js';

export interface StaticSiteOptions {
  /** Filled into every page (site/page-fill.ts). */
  publicConfig?: PublicConfig;
  /** Paths the server's own routes answer (site/server-paths.ts): passed on, never a page. */
  isServerPath?: (urlPath: string) => boolean;
}

/** What a request needs from the site's route manifest, or why it cannot have it. */
type Manifest = { ok: true; value: SiteRoutes | null } | { ok: false; reason: string };

/**
 * Serves the built site: files as they are (hashed assets cached for a year), the prerendered page of
 * a route that has one, index.html for the site's other routes (the SPA), and the not-found page for
 * any other path: 404, or 400 for a path that is not valid percent-encoding. Which paths are the
 * site's comes from its build (_pages/routes.json, site/site-routes.ts); a manifest that is there but
 * invalid is a broken build, answered 503 on every path that needs it, as a missing build is. Pages
 * are filled with the configuration once per file version. Text is sent Brotli-compressed to clients
 * that accept it; others get the app's gzip.
 */
export function staticSite(siteDir: string, options: StaticSiteOptions = {}): Hono {
  const app = new Hono();
  const root = path.resolve(siteDir);
  const pagesDir = path.join(root, '_pages');
  const brotli = brotliCache();
  const pages = pageCache(options.publicConfig);
  const readManifest = siteRoutesReader(root);
  const manifest = (): Promise<Manifest> =>
    readManifest().then(
      (value) => ({ ok: true, value }),
      (error: unknown) => ({ ok: false, reason: error instanceof Error ? error.message : String(error) }),
    );
  const unavailable = (c: Context, reason: string) => c.text(`The site cannot be served: ${reason}`, 503);
  const notBuilt = (c: Context) =>
    unavailable(c, `${root} has no index.html. Run "npm run build" or "npm start".`);

  /** Sends a body, Brotli-compressed (cached per file version) when the client accepts it. */
  async function send(
    c: Context,
    file: string,
    mtime: number,
    body: Buffer,
    status: 200 | 400 | 404,
    headers: Record<string, string>,
  ) {
    if (isCompressible(file, body.length)) {
      headers.Vary = 'Accept-Encoding';
      if (acceptsBrotli(c.req.header('Accept-Encoding'))) {
        const compressed = await brotli(file, mtime, body);
        return c.body(new Uint8Array(compressed), status, { ...headers, 'Content-Encoding': 'br' });
      }
    }
    return c.body(new Uint8Array(body), status, headers);
  }

  /** The site's not-found page, showing the path as sent (still percent-encoded, HTML-escaped). */
  async function notFound(c: Context, status: 400 | 404) {
    const routes = await manifest();
    if (!routes.ok) return unavailable(c, routes.reason);
    const named = routes.value?.notFound;
    const page =
      (named && (await pages(path.join(root, '_pages', `${named.page}.html`)))) ||
      (await pages(path.join(root, 'index.html')));
    if (!page) return notBuilt(c);
    c.set('cspScriptHashes', page.scriptHashes);
    const requested = escapeHtml(new URL(c.req.url).pathname);
    const html = named ? page.html.replaceAll(named.pathMark, () => requested) : page.html;
    // Not compressed: the body names the request's path, so no two are alike.
    return c.body(html, status, { 'Content-Type': HTML_TYPE, 'Cache-Control': 'no-cache' });
  }

  /** The page a site route is served with: its prerendered page, else the SPA's index.html. */
  async function pageFor(c: Context, urlPath: string) {
    const routes = await manifest();
    if (!routes.ok) return unavailable(c, routes.reason);
    const route = normaliseRoute(urlPath);
    // Without a manifest (an older build) every path is the SPA's, as it was.
    if (routes.value && !routes.value.routes.includes(route)) return notFound(c, 404);
    const name = routes.value?.pages[route];
    const file = name ? path.join(root, '_pages', `${name}.html`) : path.join(root, 'index.html');
    const index = path.join(root, 'index.html');
    return servePage(c, file, (await pages(file)) ?? (name ? await pages(index) : null));
  }

  /** A built page as it is served: filled, its inline scripts allowed by hash, never cached stale. */
  function servePage(c: Context, file: string, page: CachedPage | null) {
    if (!page) return notBuilt(c);
    c.set('cspScriptHashes', page.scriptHashes);
    return send(c, file, page.mtime, Buffer.from(page.html), 200, {
      'Content-Type': HTML_TYPE,
      'Cache-Control': cacheControl(file, true),
    });
  }

  app.get('*', async (c, next) => {
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(c.req.path);
    } catch {
      // A broken %-escape is the client's mistake: a 400 with the not-found page, never a 500.
      return notFound(c, 400);
    }
    if (options.isServerPath?.(urlPath)) return next();

    const candidate = path.resolve(root, `.${urlPath}`);
    // The build's own pages and their manifest are served by route, never as files: a guarded page's
    // content (_pages/content/) goes only to a signed-in caller (site/page-content.ts).
    if (candidate.startsWith(pagesDir + path.sep)) return notFound(c, 404);
    if (!candidate.startsWith(root + path.sep) || urlPath.endsWith('/')) return pageFor(c, urlPath);
    const found = await readIfFile(candidate);
    if (!found) {
      // A missing asset is a 404, not the SPA: a stale chunk must fail loudly, not parse HTML as JS.
      if (path.extname(urlPath) !== '') return c.text('Not found', 404);
      return pageFor(c, urlPath);
    }
    if (path.extname(candidate) === '.html') return servePage(c, candidate, await pages(candidate));
    return send(c, candidate, found.mtime, found.body, 200, {
      'Content-Type': contentType(candidate),
      'Cache-Control': cacheControl(urlPath, false),
      ...(isEmbedFile(urlPath) && EMBED_HEADERS),
    });
  });
  return app;
}
