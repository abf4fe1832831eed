-- Who did what to whom, and when, in the admin dashboard. No foreign key to auth_users: an entry
-- outlives the user it names (a deletion stays readable), and with hosted Supabase the users live
-- elsewhere. The target's email is copied for the same reason. Reads go newest first by id.
create table admin_audit_log (
  id bigint generated always as identity primary key,
  actor_id uuid not null,
  actor_email text not null,
  action text not null check (action in ('user.create', 'user.delete', 'user.verify')),
  target_id uuid,
  target_email text,
  created_at timestamptz not null default now()
);
