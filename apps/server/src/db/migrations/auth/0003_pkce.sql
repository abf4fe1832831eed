-- PKCE for email links (supabase-js flowType 'pkce'): the link's token remembers the challenge, and
-- following it creates a single-use flow state exchanged at /token?grant_type=pkce.
alter table auth_one_time_tokens add column code_challenge text;
alter table auth_one_time_tokens add column code_challenge_method text;

create table auth_flow_state (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth_users (id) on delete cascade,
  auth_code text not null,
  code_challenge text not null,
  code_challenge_method text not null check (code_challenge_method in ('s256', 'plain')),
  authentication_method text not null,
  created_at timestamptz not null default now()
);
create unique index auth_flow_state_auth_code_key on auth_flow_state (auth_code);
