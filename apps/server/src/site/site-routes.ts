// The site's own routes, as its build lists them: apps/site/scripts/prerender.mjs writes
// dist/_pages/routes.json from the route table (apps/site/src/app/router.tsx `sitePaths`), so the
// server knows which paths are pages and which are a 404 without a second copy of the list.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

const pageName = z.string().regex(/^[a-z0-9-]{1,64}$/);

const manifestSchema = z.object({
  /** Every route the site renders a page for (lower case, no trailing slash; '/' for home). */
  routes: z
    .array(
      z
        .string()
        .regex(/^\/[\w\-/]*$/)
        .max(200),
    )
    .max(1000),
  /** Route → its prerendered page, dist/_pages/<name>.html. */
  pages: z.record(z.string(), pageName),
  /** Guarded route → its content, dist/_pages/content/<name>.html, sent to signed-in callers only. */
  content: z.record(z.string(), pageName).optional(),
  /** The not-found page, rendered at `pathMark`, which the server replaces with the request's path. */
  notFound: z.object({ page: pageName, pathMark: z.string().min(2).max(16) }).optional(),
});
export type SiteRoutes = z.infer<typeof manifestSchema>;

/** A location's path as the site's router matches it: no trailing slash, any case. */
export const normaliseRoute = (pathname: string) => pathname.replace(/\/+$/, '').toLowerCase() || '/';

export const MANIFEST_FILE = path.join('_pages', 'routes.json');

/**
 * Reads the manifest of a built site, again only when the file changed (a rebuild under a running
 * server). Null when the build has none (an older build): every path is then the SPA's, as before.
 */
export function siteRoutesReader(root: string): () => Promise<SiteRoutes | null> {
  const file = path.join(root, MANIFEST_FILE);
  let cached: { mtime: number; value: SiteRoutes | null } | undefined;
  return async () => {
    let mtime: number;
    try {
      mtime = (await stat(file)).mtimeMs;
    } catch {
      return null;
    }
    if (cached?.mtime === mtime) return cached.value;
    let value: SiteRoutes | null = null;
    try {
      value = manifestSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    } catch (error) {
      throw new Error(`${file} is not a valid route manifest; rebuild the site (npm run build).`, {
        cause: error,
      });
    }
    cached = { mtime, value };
    return value;
  };
}
