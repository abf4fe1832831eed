-- Invites, magic links, email change and reauthentication (GoTrue's columns of the same names).
alter table auth_users add column invited_at timestamptz;
-- The pending new address of an email change; email_change_confirm_status counts the confirmed
-- halves of a secure change (0 or 1; the second confirmation applies the change).
alter table auth_users add column email_change text;
alter table auth_users add column email_change_sent_at timestamptz;
alter table auth_users add column email_change_confirm_status smallint not null default 0;
alter table auth_users add column reauthentication_sent_at timestamptz;

-- Magic links share the recovery slot (as in GoTrue); the new kinds get their own.
alter table auth_one_time_tokens drop constraint auth_one_time_tokens_token_type_check;
alter table auth_one_time_tokens add constraint auth_one_time_tokens_token_type_check check (
  token_type in ('confirmation', 'recovery', 'email_change_current', 'email_change_new', 'reauthentication')
);
