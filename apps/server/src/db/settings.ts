import type { Queryable } from '@engage/db';

/** Reads one instance setting, or undefined. */
export async function getSetting<T>(db: Queryable, key: string): Promise<T | undefined> {
  const { rows } = await db.query<{ value: T }>('select value from app_settings where key = $1', [key]);
  return rows[0]?.value;
}

/** Writes one instance setting (insert or replace). */
export async function setSetting(db: Queryable, key: string, value: unknown): Promise<void> {
  await db.query(
    `insert into app_settings (key, value, updated_at) values ($1, $2::jsonb, now())
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [key, JSON.stringify(value)],
  );
}
