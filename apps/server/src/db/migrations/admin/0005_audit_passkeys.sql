-- An administrator removing a user's passkey is audited (`detail`: the passkey's name).
alter table admin_audit_log drop constraint admin_audit_log_action_check;
alter table admin_audit_log add constraint admin_audit_log_action_check
  check (action in ('user.create', 'user.delete', 'user.verify', 'user.role', 'user.invite',
                    'user.recovery', 'user.magic_link', 'user.sign_out', 'user.ban', 'user.export',
                    'user.passkey_delete'));
