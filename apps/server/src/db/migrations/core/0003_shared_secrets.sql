-- Generated secrets (the auth signing key, API keys, the emulator's keys, the outbox token) shared by
-- every instance on one PostgreSQL (DATABASE_URL): a name → value table, written once under an
-- advisory lock at start-up (platform/shared-secrets.ts). With PGlite the data directory keeps them instead.
create table if not exists app_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);
