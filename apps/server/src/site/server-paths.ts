// Which request paths belong to the server rather than the site: derived from the routes the server
// app has mounted (app.ts), so a new mount point needs no second list here.
import type { Hono } from 'hono';

/** The first segment of a route's path ('/api/admin/users/:id' → 'api'), if it is a literal. */
const firstSegment = (routePath: string) => /^\/([^/*:?{}]+)/.exec(routePath)?.[1];

/**
 * A predicate for the paths of every route `app` has so far (middleware on '*' has no segment and
 * counts for nothing): the site calls next() for them, so an unknown server path gets the server's
 * 404, never a page. Call it once every server route is mounted, right before the site.
 */
export function serverPathsOf(app: Hono): (urlPath: string) => boolean {
  const segments = new Set(app.routes.map((r) => firstSegment(r.path)).filter(Boolean));
  return (urlPath) => {
    const segment = firstSegment(urlPath);
    return segment !== undefined && segments.has(segment);
  };
}
