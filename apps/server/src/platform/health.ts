import { isDatabaseUnavailable } from '@engage/db';
import type { Queryable } from '@engage/db';
import { Hono } from 'hono';

export interface HealthOptions {
  db: Queryable;
  /** The migrations this build applies: ready once every one is recorded. */
  migrationIds: readonly string[];
}

/**
 * `/healthz`: liveness. The process answers; nothing else is asked, so a database outage never gets
 * a healthy instance restarted (it recovers by itself when the database returns).
 * `/readyz`: readiness. The database answers and holds every migration of this build, so a load
 * balancer sends traffic only to instances that can serve it.
 */
export function healthRoutes({ db, migrationIds }: HealthOptions): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    try {
      const { rows } = await db.query<{ n: number }>(
        'select count(*)::int as n from schema_migrations where id = any($1::text[])',
        [migrationIds],
      );
      if ((rows[0]?.n ?? 0) < migrationIds.length)
        return c.json({ status: 'unavailable', reason: 'migrations' }, 503, { 'Retry-After': '5' });
      return c.json({ status: 'ready' });
    } catch (error) {
      // No schema_migrations table yet is a database that answers but is not migrated.
      const reason = isDatabaseUnavailable(error) ? 'database' : 'migrations';
      return c.json({ status: 'unavailable', reason }, 503, { 'Retry-After': '5' });
    }
  });
  return app;
}
