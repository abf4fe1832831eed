import { watchDatabase } from '@engage/db';
import type { MiddlewareHandler } from 'hono';

/** Seconds a client is asked to wait when the database is unreachable. */
export const DATABASE_RETRY_AFTER_S = 5;

/**
 * A request that met an unreachable database answers 503 `{error: 'database_unavailable'}` with
 * `Retry-After`, whatever route served it: the routes' own error handlers (auth, admin, emulator)
 * turn the failure into a 500, and this replaces that answer. Put before the routes (inside compression), so it sees every route.
 */
export function databaseUnavailable(onOutage: () => void = () => undefined): MiddlewareHandler {
  return async (c, next) => {
    const { unavailable } = await watchDatabase(next);
    if (!unavailable || c.res.status < 500) return;
    onOutage();
    c.res = c.json(
      {
        error: 'database_unavailable',
        message: 'The database cannot be reached just now; try again shortly.',
      },
      503,
      { 'Retry-After': String(DATABASE_RETRY_AFTER_S), 'Cache-Control': 'no-store' },
    );
    // Hono carries the replaced answer's headers over; its length is not this body's.
    c.res.headers.delete('Content-Length');
  };
}
