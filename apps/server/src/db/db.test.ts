import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { coreMigrations } from './migrations/index.js';
import { getSetting, setSetting } from './settings.js';
import { testDbTargets } from './testing.js';
import type { Db } from './types.js';

for (const target of testDbTargets()) {
  describe(`db on ${target.name}`, () => {
    let db: Db | undefined;
    afterEach(async () => {
      await db?.close();
      db = undefined;
    });

    it('applies migrations once and records them', async () => {
      db = await target.open();
      const first = await migrate(db, coreMigrations());
      expect(first).toContain('core/0001_settings');
      expect(await migrate(db, coreMigrations())).toEqual([]);
      const { rows } = await db.query<{ id: string }>('select id from schema_migrations');
      expect(rows.map((r) => r.id)).toEqual(first);
    });

    it('rolls back every pending migration when one fails', async () => {
      db = await target.open();
      await expect(
        migrate(db, [
          { id: 't/1', sql: 'create table good_one (id int)' },
          { id: 't/2', sql: 'create table broken (' },
        ]),
      ).rejects.toThrow(/Migration t\/2 failed/);
      const { rows } = await db.query(
        `select 1 from information_schema.tables where table_name = 'good_one'`,
      );
      expect(rows).toEqual([]);
    });

    it('rejects duplicate migration ids before touching the database', async () => {
      db = await target.open();
      await expect(
        migrate(db, [
          { id: 'x', sql: 'select 1' },
          { id: 'x', sql: 'select 1' },
        ]),
      ).rejects.toThrow(/Duplicate migration id: x/);
    });

    it('commits a transaction that resolves and rolls back one that throws', async () => {
      db = await target.open(coreMigrations());
      await db.transaction((tx) => setSetting(tx, 'kept', 1));
      await expect(
        db.transaction(async (tx) => {
          await setSetting(tx, 'lost', 2);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await getSetting(db, 'kept')).toBe(1);
      expect(await getSetting(db, 'lost')).toBeUndefined();
    });

    it('returns counts as numbers', async () => {
      db = await target.open(coreMigrations());
      const { rows } = await db.query<{ n: number }>('select count(*) as n from app_settings');
      expect(rows[0]?.n).toBe(0);
    });
  });
}
