-- A user deleting their own account (DELETE /api/account) is in the audit log too: the actor is the
-- account itself, so the administrators learn it went and when.
alter table admin_audit_log drop constraint admin_audit_log_action_check;
alter table admin_audit_log add constraint admin_audit_log_action_check
  check (action in ('user.create', 'user.delete', 'user.verify', 'user.role', 'user.invite',
                    'user.recovery', 'user.magic_link', 'user.sign_out', 'user.ban', 'user.export',
                    'user.passkey_delete', 'outbox.reveal', 'account.delete'));
