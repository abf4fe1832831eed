/**
 * `npm run bench:admin`: the admin dashboard's queries on 100 000 users.
 *
 * Fills the embedded database (in-memory PGlite, the server's default engine) with 100 000 users by
 * generate_series, then times the dashboard's own code (createEmbeddedUserAdmin) for a search, the
 * stat counts, the first page and a deep keyset page: p50 and p95 over RUNS runs after WARMUP.
 * The same is done without the trigram index for comparison, and on PostgreSQL too when
 * TEST_DATABASE_URL is set (in a schema of its own, dropped afterwards).
 * Writes its section of docs/benchmarks.md (between the admin markers) and prints it.
 */
import os from 'node:os';
import { writeNamedSection } from '@engage/bench-doc';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { createEmbeddedUserAdmin } from '../src/admin/embedded.js';
import type { ListCursor } from '../src/admin/types.js';
import { serverMigrations } from '../src/db/migrations/index.js';
import { time, type Timing } from './timing.js';

const USERS = 100_000;
const RUNS = 60;
const WARMUP = 5;

async function seed(db: Db): Promise<number> {
  const start = performance.now();
  // Realistic addresses over 40 domains, 10% unverified, sign-ups spread over the last year.
  await db.query(
    `insert into auth_users (email, email_confirmed_at, last_sign_in_at, created_at)
     select 'user' || g || '.' || substr(md5(g::text), 1, 6) || '@' || (array['example.com','mail.test','corp.example','school.example'])[1 + g % 4] || g % 10,
            case when g % 10 = 0 then null else now() - make_interval(days => g % 365) end,
            case when g % 3 = 0 then now() - make_interval(hours => g % 1000) end,
            now() - make_interval(days => g % 365, secs => g % 86400)
       from generate_series(1, $1::int) g`,
    [USERS],
  );
  await db.exec('analyze auth_users');
  return performance.now() - start;
}

interface Row {
  what: string;
  indexed: Timing;
  scan?: Timing;
}

async function measure(db: Db): Promise<{ seedMs: number; rows: Row[]; trigram: boolean }> {
  const seedMs = await seed(db);
  const admin = createEmbeddedUserAdmin(db);
  const { rows: deep } = await db.query<{ at: string; id: string }>(
    `select created_at::text as at, id from auth_users order by created_at desc, id desc offset 50000 limit 1`,
  );
  const after: ListCursor = { createdAt: deep[0]?.at as string, id: deep[0]?.id as string };
  const cases: [string, () => Promise<unknown>][] = [
    [
      'search, one match ("user4242.")',
      () => admin.listUsers({ search: 'user4242.', status: 'all', limit: 25 }),
    ],
    [
      'search, ~2 500 matches ("school.example3"), unverified',
      () => admin.listUsers({ search: 'school.example3', status: 'unverified', limit: 25 }),
    ],
    [
      'search, 2 characters ("42": too short for trigrams)',
      () => admin.listUsers({ search: '42', status: 'all', limit: 25 }),
    ],
    ['stats (total, verified, pending in one query)', () => admin.stats()],
    ['first page, verified, with its total', () => admin.listUsers({ status: 'verified', limit: 25 })],
    ['page after 50 000 users (keyset), all', () => admin.listUsers({ status: 'all', limit: 25, after })],
    ['sign-ups per day, 30 days', () => admin.signupsPerDay(30)],
  ];
  const rows: Row[] = [];
  for (const [what, fn] of cases) rows.push({ what, indexed: await time(fn, RUNS, WARMUP) });
  const { rows: idx } = await db.query(
    `select 1 from pg_indexes where indexname = 'admin_auth_users_email_trgm_idx'`,
  );
  const trigram = idx.length > 0;
  if (trigram) {
    await db.exec('drop index admin_auth_users_email_trgm_idx');
    for (const [i, [what, fn]] of cases.entries())
      if (what.startsWith('search'))
        rows[i] = { what, indexed: rows[i]!.indexed, scan: await time(fn, RUNS, WARMUP) };
  }
  return { seedMs, rows, trigram };
}

const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;

async function main() {
  const sections: string[] = [];
  for (const target of testDbTargets()) {
    process.stdout.write(`${target.name}: seeding ${USERS.toLocaleString('en')} users… `);
    const db = await target.open(serverMigrations());
    try {
      const result = await measure(db);
      console.log(`done in ${(result.seedMs / 1000).toFixed(1)} s`);
      const engine =
        target.name === 'pglite' ? 'PGlite (in memory, the embedded default)' : 'PostgreSQL 15 (loopback)';
      sections.push(
        [
          `### ${engine}`,
          '',
          `${USERS.toLocaleString('en')} users inserted with generate_series in ${(result.seedMs / 1000).toFixed(1)} s.` +
            (result.trigram ? '' : ' The pg_trgm index could not be created here, so search scans.'),
          '',
          '| query (the dashboard’s own code) | p50 | p95 | p50 without the trigram index |',
          '| --- | --- | --- | --- |',
          ...result.rows.map(
            (r) =>
              `| ${r.what} | ${ms(r.indexed.p50)} | ${ms(r.indexed.p95)} | ${r.scan ? ms(r.scan.p50) : '–'} |`,
          ),
        ].join('\n'),
      );
    } finally {
      await db.close();
    }
  }
  const load = os.loadavg()[0]?.toFixed(1);
  const date = new Date().toISOString().slice(0, 10);
  const section = [
    '## Admin dashboard (`npm run bench:admin`)',
    '',
    `Measured ${date}, Node ${process.version}, ${os.cpus().length} cores, load average ${load} at the end. ` +
      `${RUNS} runs after ${WARMUP} warm-up each; a search includes its total count (two queries), as the API does.`,
    '',
    ...sections.flatMap((s) => [s, '']),
    "Search is `lower(email) like '%term%'` served by a pg_trgm GIN index (terms of 3+ characters); pages are",
    'keyset pages on `(created_at, id)`, so a deep page costs what the first does. With hosted Supabase the',
    'admin API has no search or counts, and the server reads every user page by page instead (see docs/decisions.md).',
    'Every synthetic address here starts with `user`, so a term like `user4242.` shares trigrams with every row',
    'and the index reads long lists; real addresses vary more. A term of 1–2 characters cannot use trigrams and scans.',
  ].join('\n');

  writeNamedSection('admin', section);
  console.log(section);
}

await main();
