-- An administrator revealing a mail's links and code in the dashboard's outbox is audited
-- (`target`: the mail's recipient, `detail`: its subject): those links sign their recipient in.
alter table admin_audit_log drop constraint admin_audit_log_action_check;
alter table admin_audit_log add constraint admin_audit_log_action_check
  check (action in ('user.create', 'user.delete', 'user.verify', 'user.role', 'user.invite',
                    'user.recovery', 'user.magic_link', 'user.sign_out', 'user.ban', 'user.export',
                    'user.passkey_delete', 'outbox.reveal'));
