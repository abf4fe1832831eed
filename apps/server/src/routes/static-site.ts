import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';

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

/** Paths owned by the server: never answered with the SPA's index.html. */
const SERVER_PREFIXES = ['/api/', '/auth/', '/provider/', '/_mail', '/healthz', '/config.json'];

async function readIfFile(file: string): Promise<Buffer | null> {
  try {
    if (!(await stat(file)).isFile()) return null;
    return await readFile(file);
  } catch {
    return null;
  }
}

/**
 * Serves the built site: files as they are (hashed assets cached for a year), and index.html for
 * every other GET that asks for a page (the SPA's routes). A missing build is reported plainly.
 */
export function staticSite(siteDir: string): Hono {
  const app = new Hono();
  const root = path.resolve(siteDir);

  app.get('*', async (c, next) => {
    const urlPath = decodeURIComponent(c.req.path);
    if (SERVER_PREFIXES.some((p) => urlPath.startsWith(p))) return next();
    const file = path.resolve(root, `.${urlPath}`);
    if (file.startsWith(root + path.sep) && !urlPath.endsWith('/')) {
      const body = await readIfFile(file);
      if (body) {
        const ext = path.extname(file);
        const hashed = urlPath.startsWith('/assets/');
        return c.body(new Uint8Array(body), 200, {
          'Content-Type': TYPES[ext] ?? 'application/octet-stream',
          'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        });
      }
      // A missing asset is a 404, not the SPA: a stale chunk must fail loudly, not parse HTML as JS.
      if (path.extname(urlPath) !== '') return c.text('Not found', 404);
    }
    const index = await readIfFile(path.join(root, 'index.html'));
    if (!index) {
      return c.text(
        `The site is not built (${root} has no index.html). Run "npm run build" or "npm start".`,
        503,
      );
    }
    return c.body(new Uint8Array(index), 200, {
      'Content-Type': TYPES['.html'] as string,
      'Cache-Control': 'no-cache',
    });
  });
  return app;
}
