-- The account actions of the admin dashboard are audited too: invitations, mailed
-- recovery and sign-in links, sign-out everywhere, bans (`detail`: the duration) and CSV exports
-- (no target; `detail`: the filter).
alter table admin_audit_log drop constraint admin_audit_log_action_check;
alter table admin_audit_log add constraint admin_audit_log_action_check
  check (action in ('user.create', 'user.delete', 'user.verify', 'user.role', 'user.invite',
                    'user.recovery', 'user.magic_link', 'user.sign_out', 'user.ban', 'user.export'));
