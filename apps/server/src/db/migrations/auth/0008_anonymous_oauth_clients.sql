-- Anonymous users (AUTH_ANONYMOUS, GoTrue's is_anonymous) and the OAuth clients of GoTrue's admin API
-- (/admin/oauth/clients).
alter table auth_users add column is_anonymous boolean not null default false;
-- An anonymous user has no address (''): the unique index covers real addresses only.
drop index auth_users_email_key;
create unique index auth_users_email_key on auth_users (lower(email)) where email <> '';
-- The cap and the pruning of never-upgraded anonymous users read these rows by age.
create index auth_users_anonymous_created_idx on auth_users (created_at) where is_anonymous;

-- Only a SHA-256 hash of a confidential client's secret is kept: the secret is shown once.
create table auth_oauth_clients (
  id uuid primary key default gen_random_uuid(),
  client_name text not null default '',
  client_type text not null check (client_type in ('public', 'confidential')),
  token_endpoint_auth_method text not null
    check (token_endpoint_auth_method in ('none', 'client_secret_basic', 'client_secret_post')),
  registration_type text not null default 'manual' check (registration_type in ('manual', 'dynamic')),
  client_secret_hash text,
  redirect_uris jsonb not null,
  grant_types jsonb not null,
  client_uri text,
  logo_uri text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index auth_oauth_clients_created_at_idx on auth_oauth_clients (created_at desc, id desc);
