import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { testDbTargets } from './testing.js';
import type { Db, Migration, Queryable } from './types.js';

const notes: Migration[] = [
  { id: 'notes/0001', sql: 'create table notes (key text primary key, value int)' },
];
const note = (q: Queryable, key: string, value: number) =>
  q.query('insert into notes (key, value) values ($1, $2)', [key, value]);
const noteValue = async (q: Queryable, key: string) =>
  (await q.query<{ value: number }>('select value from notes where key = $1', [key])).rows[0]?.value;

for (const target of testDbTargets()) {
  describe(`db on ${target.name}`, () => {
    let db: Db | undefined;
    afterEach(async () => {
      await db?.close();
      db = undefined;
    });

    it('applies migrations once and records them', async () => {
      db = await target.open();
      const first = await migrate(db, notes);
      expect(first).toEqual(['notes/0001']);
      expect(await migrate(db, notes)).toEqual([]);
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
      db = await target.open(notes);
      await db.transaction((tx) => note(tx, 'kept', 1));
      await expect(
        db.transaction(async (tx) => {
          await note(tx, 'lost', 2);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await noteValue(db, 'kept')).toBe(1);
      expect(await noteValue(db, 'lost')).toBeUndefined();
    });

    it('returns counts as numbers', async () => {
      db = await target.open(notes);
      const { rows } = await db.query<{ n: number }>('select count(*) as n from notes');
      expect(rows[0]?.n).toBe(0);
    });
  });
}
