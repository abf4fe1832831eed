-- The limiter's counters with DATABASE_URL (apps/server/src/db/limit-store.ts; the algorithm is GCRA in
-- packages/rate-limit): one row per limit and key, holding its theoretical arrival time in epoch
-- milliseconds, so every instance on this database counts one limit. UNLOGGED: a hit writes no WAL;
-- after a crash PostgreSQL empties the table, which gives each key at most one fresh burst.
-- No index but the key: updates stay HOT. Rows whose time has passed are full buckets, swept.
create unlogged table if not exists rate_limits (
  key text primary key,
  tat double precision not null,
  -- Whether the last take was allowed: the answer of the one statement that applies it.
  ok boolean not null default true
);
