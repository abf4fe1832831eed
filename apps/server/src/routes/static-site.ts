import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib } from 'node:zlib';
import { Hono, type Context } from 'hono';
import type { PublicConfig } from './public-config.js';
import { normaliseRoute, siteRoutesReader } from './site-routes.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};
const compressBrotli = promisify(brotliCompress);
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.map', '.wasm']);

/** Paths owned by the server: never answered with the SPA's index.html. */
const SERVER_PREFIXES = ['/api/', '/auth/', '/provider/', '/_mail', '/healthz', '/readyz', '/config.json'];

/**
 * Marks the site's pages carry where the owner's configuration goes (apps/site/src/app/entry-server.tsx):
 * private-use characters. The domain's is two: letter-spaced by the site they are the landing title's
 * text (filled with the spaced domain), whole they are its accessible name (the domain as written).
 */
const MARK_SITE_TITLE = '\uE001';
const MARK_OWNER_DOMAIN = '\uE000\uE003';
const MARK_OWNER_DOMAIN_SPACED = '\uE000 \uE003';
const MARK_CONFIG = '<!--engage-config-->';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** The personal page's title: the owner's domain letter by letter (as apps/site/src/lib/letter-spacing.ts). */
const spaceOut = (text: string) => [...text.replace(/\s+/g, '')].join(' ');

/**
 * Fills a page with the configuration of this start, so a change of SITE_TITLE or OWNER_DOMAIN needs
 * no rebuild: the title and domain HTML-escaped, and the public configuration as a JSON data block
 * (not a script the CSP would have to allow; `<` escaped so no text can close the element).
 */
export function fillPage(html: string, config: PublicConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return html
    .replaceAll(MARK_SITE_TITLE, () => escapeHtml(config.siteTitle))
    .replaceAll(MARK_OWNER_DOMAIN_SPACED, () => escapeHtml(spaceOut(config.ownerDomain)))
    .replaceAll(MARK_OWNER_DOMAIN, () => escapeHtml(config.ownerDomain))
    .replace(MARK_CONFIG, () => `<script type="application/json" id="engage-config">${json}</script>`);
}

/**
 * The CSP sources of a page's inline scripts: every `<script>` without attributes (the build's
 * inlined session hint; the configuration is a JSON data block, which the CSP does not govern),
 * hashed from the built file. Filling the page changes no script: the values land outside them,
 * escaped, so nothing the configuration holds can become an allowed script.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, code]) =>
      `'sha256-${createHash('sha256')
        .update(code ?? '', 'utf8')
        .digest('base64')}'`,
  );
}

/**
 * The widget other sites load (/embed.js, and /embed/…: its hashed copy, the React view, chunks,
 * the microphone worklet): fetched from their pages, as modules (CORS mode) or with SRI, so readable
 * by any origin; they hold no data, only code every visitor gets.
 */
const isEmbedFile = (urlPath: string) => urlPath === '/embed.js' || urlPath.startsWith('/embed/');
const EMBED_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
} as const;

/** Content-hashed files (the site's /assets/, the widget's /embed/ but its manifest) never change. */
function cacheControl(urlPath: string): string {
  const hashed =
    urlPath.startsWith('/assets/') || (urlPath.startsWith('/embed/') && urlPath !== '/embed/manifest.json');
  if (hashed) return 'public, max-age=31536000, immutable';
  // /embed.js names the current files: a site's visitors get a new build within minutes.
  return urlPath === '/embed/manifest.json' ? 'no-cache' : 'public, max-age=300';
}

async function readIfFile(file: string): Promise<{ body: Buffer; mtime: number } | null> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return null;
    return { body: await readFile(file), mtime: info.mtimeMs };
  } catch {
    return null;
  }
}

const acceptsBrotli = (header: string | undefined) =>
  (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    return name?.trim().toLowerCase() === 'br' && (q === undefined || Number(q) > 0);
  });

/**
 * Serves the built site: files as they are (hashed assets cached for a year), the prerendered page of
 * a route that has one, index.html for the site's other routes (the SPA), and the not-found page for
 * any other path: 404, or 400 for a path that is not valid percent-encoding. Which paths are the
 * site's comes from its build (_pages/routes.json, routes/site-routes.ts). Pages are filled with the
 * configuration. Text is sent Brotli-compressed to clients that accept it (compressed once per file
 * version and kept); others get the app's gzip. A missing build is reported plainly.
 */
export function staticSite(siteDir: string, options: { publicConfig?: PublicConfig } = {}): Hono {
  const app = new Hono();
  const root = path.resolve(siteDir);
  const brotli = new Map<string, { mtime: number; body: Buffer }>();
  const siteRoutes = siteRoutesReader(root);
  const notBuilt = (c: Context) =>
    c.text(`The site is not built (${root} has no index.html). Run "npm run build" or "npm start".`, 503);

  /** The site's not-found page, showing the path as sent (still percent-encoded, HTML-escaped). */
  async function notFound(c: Context, status: 400 | 404) {
    const manifest = await siteRoutes().catch(() => null);
    const page =
      (manifest?.notFound &&
        (await readIfFile(path.join(root, '_pages', `${manifest.notFound.page}.html`)))) ||
      (await readIfFile(path.join(root, 'index.html')));
    if (!page) return notBuilt(c);
    const html = page.body.toString('utf8');
    c.set('cspScriptHashes', inlineScriptHashes(html));
    const filled = options.publicConfig ? fillPage(html, options.publicConfig) : html;
    const mark = manifest?.notFound?.pathMark;
    const requested = escapeHtml(new URL(c.req.url).pathname);
    return c.body(mark ? filled.replaceAll(mark, () => requested) : filled, status, {
      'Content-Type': TYPES['.html'] as string,
      'Cache-Control': 'no-cache',
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
    if (SERVER_PREFIXES.some((p) => urlPath.startsWith(p))) return next();

    let file: string | null = null;
    let found: { body: Buffer; mtime: number } | null = null;
    const candidate = path.resolve(root, `.${urlPath}`);
    if (candidate.startsWith(root + path.sep) && !urlPath.endsWith('/')) {
      found = await readIfFile(candidate);
      if (found) file = candidate;
      // A missing asset is a 404, not the SPA: a stale chunk must fail loudly, not parse HTML as JS.
      else if (path.extname(urlPath) !== '') return c.text('Not found', 404);
    }
    if (!found) {
      const route = normaliseRoute(urlPath);
      const manifest = await siteRoutes();
      // Without a manifest (an older build) every path is the SPA's, as it was.
      if (manifest && !manifest.routes.includes(route)) return notFound(c, 404);
      const name = manifest?.pages[route];
      if (name) {
        file = path.join(root, '_pages', `${name}.html`);
        found = await readIfFile(file);
      }
      if (!found) {
        file = path.join(root, 'index.html');
        found = await readIfFile(file);
      }
    }
    if (!found || !file) return notBuilt(c);

    const ext = path.extname(file);
    const isPage = ext === '.html';
    const headers: Record<string, string> = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Cache-Control': isPage ? 'no-cache' : cacheControl(urlPath),
      ...(isEmbedFile(urlPath) && EMBED_HEADERS),
    };
    if (isPage) c.set('cspScriptHashes', inlineScriptHashes(found.body.toString('utf8')));
    const body =
      isPage && options.publicConfig
        ? Buffer.from(fillPage(found.body.toString('utf8'), options.publicConfig))
        : found.body;
    if (COMPRESSIBLE.has(ext) && body.length >= 1024) {
      headers.Vary = 'Accept-Encoding';
      if (acceptsBrotli(c.req.header('Accept-Encoding'))) {
        // Keyed by file and version: a page is filled with one configuration per start.
        let cached = brotli.get(file);
        if (!cached || cached.mtime !== found.mtime) {
          cached = {
            mtime: found.mtime,
            // Off the event loop (zlib's thread pool); quality 11 once per file version.
            body: await compressBrotli(body, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: 11,
                [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
          };
          brotli.set(file, cached);
        }
        return c.body(new Uint8Array(cached.body), 200, { ...headers, 'Content-Encoding': 'br' });
      }
    }
    return c.body(new Uint8Array(body), 200, headers);
  });
  return app;
}
