import type { Db, Migration } from './types.js';

/** Any fixed 64-bit key: serialises concurrent starts of several servers on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 872_114_301;

/**
 * Applies pending migrations in one transaction and records each in `schema_migrations`.
 * Either every pending migration is applied or none is. Returns the ids applied now.
 */
export async function migrate(db: Db, migrations: readonly Migration[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const m of migrations) {
    if (ids.has(m.id)) throw new Error(`Duplicate migration id: ${m.id}`);
    ids.add(m.id);
  }
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(
      `create table if not exists schema_migrations (
         id text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    const { rows } = await tx.query<{ id: string }>('select id from schema_migrations');
    const done = new Set(rows.map((r) => r.id));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      try {
        await tx.exec(m.sql);
      } catch (error) {
        throw new Error(`Migration ${m.id} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query('insert into schema_migrations (id) values ($1)', [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}
