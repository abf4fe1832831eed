-- Instance-wide settings and facts (for example when the instance was first started).
create table if not exists app_settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now()
);
