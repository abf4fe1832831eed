// @vitest-environment node
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sqlEditorUrl } from './sql-editor-url';
import { buildVerifySql, HOSTED_USERS_TABLE } from './verify-sql';

const A = '0b7a6c9e-1d2f-4a3b-8c4d-5e6f7a8b9c01';
const B = '0b7a6c9e-1d2f-4a3b-8c4d-5e6f7a8b9c02';
const C = '0b7a6c9e-1d2f-4a3b-8c4d-5e6f7a8b9c03';
const D = '0b7a6c9e-1d2f-4a3b-8c4d-5e6f7a8b9c04';

describe('buildVerifySql', () => {
  it('targets Supabase auth.users by default, one id with =, several with IN', () => {
    expect(buildVerifySql([A])).toBe(
      [
        '-- Confirm the email of 1 selected user (only where not yet confirmed)',
        'UPDATE auth.users',
        'SET email_confirmed_at = NOW()',
        `WHERE id = '${A}'`,
        'AND email_confirmed_at IS NULL;',
      ].join('\n'),
    );
    const many = buildVerifySql([A, B, A.toUpperCase()]);
    expect(many).toContain(`WHERE id IN (\n  '${A}',\n  '${B}'\n)`);
    expect(many).toContain('2 selected users');
  });

  it('refuses anything that is not a UUID or a table name, so nothing else can reach the SQL', () => {
    expect(() => buildVerifySql([])).toThrow('Select at least one user');
    expect(() => buildVerifySql(["x'); drop table auth.users; --"])).toThrow('Not a user id');
    expect(() => buildVerifySql([A], 'users; drop')).toThrow('Not a table name');
  });
});

describe('the generated SQL on a real PostgreSQL engine (PGlite)', () => {
  let db: PGlite;
  const confirmedBefore = '2026-01-02 03:04:05.678901+00';

  beforeAll(async () => {
    db = await PGlite.create();
    // The columns of Supabase's auth.users that the statement touches, under the same name.
    await db.exec(`create schema auth;
      create table auth.users (id uuid primary key, email text not null, email_confirmed_at timestamptz)`);
    // PGlite's first start (WASM) takes seconds, more on a busy machine than the site's default hook timeout.
  }, 60_000);
  afterAll(() => db.close());
  beforeEach(async () => {
    await db.exec('delete from auth.users');
    await db.query(
      `insert into auth.users values ($1, 'a@x.io', null), ($2, 'b@x.io', null), ($3, 'c@x.io', $5), ($4, 'd@x.io', null)`,
      [A, B, C, D, confirmedBefore],
    );
  });

  const confirmed = async () =>
    (
      await db.query<{ email: string; at: string | null }>(
        'select email, email_confirmed_at::text as at from auth.users order by email',
      )
    ).rows;

  it('confirms exactly the selected unverified users and nobody else', async () => {
    const result = await db.exec(buildVerifySql([A, B, C], HOSTED_USERS_TABLE));
    expect(result.at(-1)?.affectedRows).toBe(2);
    const rows = await confirmed();
    expect(rows.find((r) => r.email === 'a@x.io')?.at).not.toBeNull();
    expect(rows.find((r) => r.email === 'b@x.io')?.at).not.toBeNull();
    // Already confirmed: its date is kept. Not selected: still unverified.
    expect(rows.find((r) => r.email === 'c@x.io')?.at).toBe(confirmedBefore);
    expect(rows.find((r) => r.email === 'd@x.io')?.at).toBeNull();
  });

  it('runs for a single id, and a second run changes nothing', async () => {
    await db.exec(buildVerifySql([D]));
    const first = (await confirmed()).find((r) => r.email === 'd@x.io')?.at;
    expect(first).not.toBeNull();
    const again = await db.exec(buildVerifySql([D]));
    expect(again.at(-1)?.affectedRows).toBe(0);
    expect((await confirmed()).filter((r) => r.at !== null).map((r) => r.email)).toEqual([
      'c@x.io',
      'd@x.io',
    ]);
  });
});

describe('sqlEditorUrl', () => {
  it('opens the hosted project SQL editor, and none for the embedded auth', () => {
    expect(sqlEditorUrl({ embedded: false, url: 'https://abcd1234.supabase.co' })).toBe(
      'https://supabase.com/dashboard/project/abcd1234/sql/new',
    );
    expect(sqlEditorUrl({ embedded: false, url: 'https://auth.example.com' })).toBe(
      'https://supabase.com/dashboard/projects',
    );
    expect(sqlEditorUrl({ embedded: true, url: null })).toBeNull();
  });
});
