// The server's own tables: its core migrations apply once, and its settings round-trip, on PGlite and
// (with TEST_DATABASE_URL) PostgreSQL. The database layer itself is tested in packages/db.
import { migrate, type Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { coreMigrations } from './migrations/index.js';
import { getSetting, setSetting } from './settings.js';

for (const target of testDbTargets()) {
  describe(`the server's core tables on ${target.name}`, () => {
    let db: Db | undefined;
    afterEach(async () => {
      await db?.close();
      db = undefined;
    });

    it('applies the core migrations once', async () => {
      db = await target.open();
      expect(await migrate(db, coreMigrations())).toContain('core/0001_settings');
      expect(await migrate(db, coreMigrations())).toEqual([]);
    });

    it('keeps a setting, replaces it, and answers undefined for one never set', async () => {
      db = await target.open(coreMigrations());
      await setSetting(db, 'kept', 1);
      await setSetting(db, 'kept', 2);
      expect(await getSetting(db, 'kept')).toBe(2);
      expect(await getSetting(db, 'never')).toBeUndefined();
    });
  });
}
