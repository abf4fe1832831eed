-- Single-use recovery codes for an account with a second factor: the way back in when the
-- authenticator is lost. Only their keyed hashes are kept; a used code keeps its row (used_at), so
-- "8 of 10 left" can be said. They go with the account, and with its last verified factor.
create table auth_mfa_recovery_codes (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth_users (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index auth_mfa_recovery_codes_user on auth_mfa_recovery_codes (user_id);
