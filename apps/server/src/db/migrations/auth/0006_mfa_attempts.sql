-- TOTP verification state kept on the factor row, so it holds across server instances:
-- the time step of the last accepted code (no code is accepted twice), and the wrong codes in a
-- row with the back-off they earned.
alter table auth_factors add column last_totp_step bigint;
alter table auth_factors add column failed_verifications integer not null default 0;
alter table auth_factors add column verify_locked_until timestamptz;
