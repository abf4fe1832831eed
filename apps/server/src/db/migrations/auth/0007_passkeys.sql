-- Passkeys and WebAuthn MFA factors. One credential table serves both: a passkey signs a
-- user in on its own (factor_id null); a WebAuthn factor's credential (factor_id set) only raises a
-- session to aal2 and is listed with the user's factors, not with the passkeys.
alter table auth_factors drop constraint auth_factors_factor_type_check;
alter table auth_factors add constraint auth_factors_factor_type_check check (
  factor_type in ('totp', 'phone', 'webauthn')
);

create table auth_webauthn_credentials (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth_users (id) on delete cascade,
  factor_id uuid references auth_factors (id) on delete cascade,
  -- The authenticator's credential id, base64url as the browser sends it.
  credential_id text not null,
  -- COSE public key, base64url.
  public_key text not null,
  sign_count bigint not null default 0,
  transports jsonb not null default '[]'::jsonb,
  aaguid text,
  backed_up boolean not null default false,
  friendly_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_used_at timestamptz
);
create unique index auth_webauthn_credentials_credential_id_key on auth_webauthn_credentials (credential_id);
create index auth_webauthn_credentials_user_id_idx on auth_webauthn_credentials (user_id);

-- One ceremony's challenge: single-use (deleted when a verification takes it), expiring, and bound
-- to what asked for it: the user and session of a registration or an MFA challenge, the factor of an
-- MFA challenge, nobody for a passkey sign-in (the credential then names the user).
create table auth_webauthn_challenges (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('registration', 'authentication', 'mfa_create', 'mfa_request')),
  challenge text not null,
  user_id uuid references auth_users (id) on delete cascade,
  session_id uuid references auth_sessions (id) on delete cascade,
  factor_id uuid references auth_factors (id) on delete cascade,
  created_at timestamptz not null default now()
);
create index auth_webauthn_challenges_created_at_idx on auth_webauthn_challenges (created_at);
