-- An operator or admin seeing a visitor's address (left for an answer by mail) is audited, once
-- per address and reader (`target_email`: the address, `detail`: the question).
alter table admin_audit_log drop constraint admin_audit_log_action_check;
alter table admin_audit_log add constraint admin_audit_log_action_check
  check (action in ('user.create', 'user.delete', 'user.verify', 'user.role', 'user.invite',
                    'user.recovery', 'user.magic_link', 'user.sign_out', 'user.ban', 'user.export',
                    'user.passkey_delete', 'outbox.reveal', 'account.delete', 'visitor_address.read'));
