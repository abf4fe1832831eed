-- Role changes in the admin dashboard (PUT /api/admin/users/:id/role) are audited as 'user.role',
-- with the new role in `detail`.
alter table admin_audit_log drop constraint admin_audit_log_action_check;
alter table admin_audit_log add constraint admin_audit_log_action_check
  check (action in ('user.create', 'user.delete', 'user.verify', 'user.role'));
alter table admin_audit_log add column detail text;
