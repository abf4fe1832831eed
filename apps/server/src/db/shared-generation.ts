import type { Queryable } from '@engage/db';

/**
 * A counter every instance on one database shares: `bump` after a change, `read` (one primary-key
 * lookup) before serving something kept in memory, which is stale when the counter moved since it
 * was made. Used by the Unanswered tab's kept scan (conversations/unanswered-cache.ts).
 * @module
 */

export interface SharedGeneration {
  /** The counter now, as text (0 before the first bump). */
  read(): Promise<string>;
  bump(): Promise<void>;
}

export function sharedGeneration(db: Queryable, name: string): SharedGeneration {
  return {
    async read() {
      const { rows } = await db.query<{ generation: string | number | bigint }>(
        'select generation from app_generations where name = $1',
        [name],
      );
      return String(rows[0]?.generation ?? 0);
    },
    async bump() {
      await db.query(
        `insert into app_generations (name, generation) values ($1, 1)
         on conflict (name) do update set generation = app_generations.generation + 1`,
        [name],
      );
    },
  };
}
