import { afterEach, describe, expect, it } from 'vitest';
import { openPglite, PGLITE_SHARED_BUFFERS } from './pglite.js';
import type { Db } from './types.js';

describe('PGlite as Engage opens it', () => {
  let db: Db | undefined;
  afterEach(() => db?.close());

  it("keeps PostgreSQL's buffer cache small, and the rest of PGlite's settings", async () => {
    db = await openPglite();
    const setting = async (name: string) =>
      (await db!.query<{ value: string }>(`select current_setting($1) as value`, [name])).rows[0]?.value;
    expect(await setting('shared_buffers')).toBe(PGLITE_SHARED_BUFFERS);
    // PGlite's own start parameters still apply (single process, no parallel workers).
    expect(await setting('max_worker_processes')).toBe('0');
    expect(await setting('search_path')).toBe('public');
  });
});
