-- Users of the embedded auth service (GoTrue-compatible fields). Tables carry a module prefix and
-- no schema name, so a test schema on PostgreSQL (search_path) isolates them.
create table auth_users (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  encrypted_password text,
  email_confirmed_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb not null default '{}'::jsonb,
  raw_user_meta_data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index auth_users_email_key on auth_users (lower(email));
create index auth_users_created_at_idx on auth_users (created_at);
