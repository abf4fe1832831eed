-- Generation counters shared by every instance on one database (apps/server/src/db/shared-generation.ts):
-- a change bumps its counter, and a cache kept in one process reads the counter before serving, so
-- a change made through one instance is seen by all at once. One row per cache; no other data.
create table if not exists app_generations (
  name text primary key,
  generation bigint not null default 0
);
