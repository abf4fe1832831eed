// @vitest-environment node
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
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

/** A database the generated text runs on, as a person would paste it into a SQL editor. */
interface Engine {
  name: string;
  /** The users table the SQL targets there. */
  table: string;
  open(): Promise<void>;
  /** Runs one statement as plain text and returns the rows it changed. */
  run(sql: string): Promise<number>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

function pgliteEngine(): Engine {
  let db: PGlite;
  return {
    name: 'PGlite',
    // Supabase's own name: the very text a person copies is the text that runs.
    table: HOSTED_USERS_TABLE,
    async open() {
      db = await PGlite.create();
      await db.exec('create schema auth');
    },
    async run(sql) {
      return (await db.exec(sql)).at(-1)?.affectedRows ?? 0;
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    close: () => db.close(),
  };
}

/** PostgreSQL (CI sets TEST_DATABASE_URL): a schema of its own, so parallel runs never meet. */
function postgresEngine(url: string): Engine {
  const schema = `verify_sql_${Math.random().toString(36).slice(2, 10)}`;
  let client: pg.Client;
  return {
    name: 'PostgreSQL',
    table: `${schema}.users`,
    async open() {
      client = new pg.Client({ connectionString: url, options: '-c timezone=UTC' });
      await client.connect();
      await client.query(`create schema ${schema}`);
    },
    async run(sql) {
      return (await client.query(sql)).rowCount ?? 0;
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    async close() {
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

const engines = [pgliteEngine()];
if (process.env.TEST_DATABASE_URL) engines.push(postgresEngine(process.env.TEST_DATABASE_URL));

for (const engine of engines) {
  describe(`the generated SQL on ${engine.name}`, () => {
    const confirmedBefore = '2026-01-02 03:04:05.678901+00';
    const { table } = engine;

    beforeAll(async () => {
      await engine.open();
      // The columns of Supabase's auth.users that the statement touches, under the same names.
      await engine.run(
        `create table ${table} (id uuid primary key, email text not null, email_confirmed_at timestamptz)`,
      );
      // PGlite's first start (WASM) takes seconds, more on a busy machine than the default hook timeout.
    }, 60_000);
    afterAll(() => engine.close());
    beforeEach(async () => {
      await engine.run(`delete from ${table}`);
      await engine.query(
        `insert into ${table} values ($1, 'a@x.io', null), ($2, 'b@x.io', null), ($3, 'c@x.io', $5), ($4, 'd@x.io', null)`,
        [A, B, C, D, confirmedBefore],
      );
    });

    const confirmed = () =>
      engine.query<{ email: string; at: string | null }>(
        `select email, email_confirmed_at::text as at from ${table} order by email`,
      );

    it('confirms exactly the selected unverified users and nobody else', async () => {
      expect(await engine.run(buildVerifySql([A, B, C], table))).toBe(2);
      const rows = await confirmed();
      expect(rows.find((r) => r.email === 'a@x.io')?.at).not.toBeNull();
      expect(rows.find((r) => r.email === 'b@x.io')?.at).not.toBeNull();
      // Already confirmed: its date is kept. Not selected: still unverified.
      expect(rows.find((r) => r.email === 'c@x.io')?.at).toBe(confirmedBefore);
      expect(rows.find((r) => r.email === 'd@x.io')?.at).toBeNull();
    });

    it('runs for a single id, and a second run changes nothing', async () => {
      expect(await engine.run(buildVerifySql([D], table))).toBe(1);
      expect(await engine.run(buildVerifySql([D], table))).toBe(0);
      expect((await confirmed()).filter((r) => r.at !== null).map((r) => r.email)).toEqual([
        'c@x.io',
        'd@x.io',
      ]);
    });
  });
}

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
