-- Sessions, rotating refresh tokens, one-time email tokens, MFA factors and the mail outbox of the
-- embedded auth service. Everything that belongs to a user goes when the user goes (on delete cascade).
alter table auth_users add column confirmation_sent_at timestamptz;
alter table auth_users add column recovery_sent_at timestamptz;
alter table auth_users add column banned_until timestamptz;

create table auth_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth_users (id) on delete cascade,
  aal text not null default 'aal1',
  -- [{method, timestamp}], newest first, copied into each access token's amr claim.
  amr jsonb not null default '[]'::jsonb,
  factor_id uuid,
  user_agent text,
  ip text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  refreshed_at timestamptz
);
create index auth_sessions_user_id_idx on auth_sessions (user_id);

-- GoTrue's v1 refresh tokens: each rotation revokes the presented token and adds a child.
create table auth_refresh_tokens (
  id bigserial primary key,
  token text not null,
  user_id uuid not null references auth_users (id) on delete cascade,
  session_id uuid not null references auth_sessions (id) on delete cascade,
  parent text,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index auth_refresh_tokens_token_key on auth_refresh_tokens (token);
create index auth_refresh_tokens_session_id_idx on auth_refresh_tokens (session_id, revoked);
create index auth_refresh_tokens_parent_idx on auth_refresh_tokens (parent);

-- Email links and codes (confirmation, recovery). Only a hash of the secret is stored.
create table auth_one_time_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth_users (id) on delete cascade,
  token_type text not null check (token_type in ('confirmation', 'recovery')),
  token_hash text not null,
  created_at timestamptz not null default now()
);
create unique index auth_one_time_tokens_hash_key on auth_one_time_tokens (token_hash);
create unique index auth_one_time_tokens_user_type_key on auth_one_time_tokens (user_id, token_type);

create table auth_factors (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth_users (id) on delete cascade,
  friendly_name text,
  factor_type text not null check (factor_type in ('totp', 'phone')),
  status text not null default 'unverified' check (status in ('unverified', 'verified')),
  secret text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_challenged_at timestamptz
);
create index auth_factors_user_id_idx on auth_factors (user_id);

create table auth_mfa_challenges (
  id uuid primary key default gen_random_uuid(),
  factor_id uuid not null references auth_factors (id) on delete cascade,
  ip text,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);

-- Mail of the embedded auth: confirmation, recovery, admin notifications. Viewable at /_mail.
create table mail_outbox (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth_users (id) on delete cascade,
  kind text not null,
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  error text
);
create index mail_outbox_created_at_idx on mail_outbox (created_at desc);
