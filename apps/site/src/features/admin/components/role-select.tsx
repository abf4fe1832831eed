import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import { cn } from '@/lib/utils';
import { roleOf, USER_ROLES, type AdminUser, type UserRole } from '../api/client';
import { useSetRole } from '../api/queries';
import { roleLabels, toasts } from '../lib/messages';

/**
 * A user row's role (docs/architecture.md, "Roles"): User, Operator (the import tool with the server's key)
 * or Admin. A native select, so keyboard and screen readers get the platform's own control. The
 * signed-in admin's own row is disabled: the server refuses a change of one's own role. Every
 * change asks first, saying what the new role can do, as ban and delete do: a role hands over the
 * server's provider key (Operator) or every account (Admin), and taking one away ends that.
 */
export function RoleSelect({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const id = useId();
  const setRole = useSetRole();
  // The chosen role while it is being saved; the row shows it until the refreshed list arrives.
  const [saving, setSaving] = useState<UserRole | null>(null);
  // The role chosen, waiting here for the confirmation.
  const [asked, setAsked] = useState<UserRole | null>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  const current = roleOf(user);

  function choose(role: UserRole) {
    if (role !== current) setAsked(role);
  }

  async function change(role: UserRole) {
    setSaving(role);
    try {
      await setRole.mutateAsync({ id: user.id, role });
      toast.success(toasts.roleChanged(user.email, roleLabels[role]));
    } catch (error) {
      toast.error(toasts.roleFailed, { description: error instanceof Error ? error.message : undefined });
    } finally {
      setSaving(null);
    }
  }

  return (
    <div className="flex items-center gap-2">
      {/* aria-label, not a hidden label: the row's email stays the only text naming the user. */}
      <select
        aria-label={`Role for ${user.email}`}
        ref={selectRef}
        value={saving ?? current}
        disabled={isSelf || saving !== null}
        aria-describedby={isSelf ? `${id}-self` : undefined}
        aria-busy={saving !== null}
        title={isSelf ? SELF_NOTE : undefined}
        onChange={(e) => choose(e.target.value as UserRole)}
        className={cn(
          'h-8 rounded-md border border-border bg-background px-2 text-sm shadow-xs',
          'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
          'disabled:cursor-not-allowed disabled:opacity-50',
        )}
      >
        {USER_ROLES.map((role) => (
          <option key={role} value={role}>
            {roleLabels[role]}
          </option>
        ))}
      </select>
      {isSelf && (
        <span id={`${id}-self`} className="sr-only">
          {SELF_NOTE}
        </span>
      )}
      {saving !== null && (
        <span role="status" className="text-xs text-muted-foreground">
          Saving…
        </span>
      )}
      <ConfirmRemove
        open={asked !== null}
        onOpenChange={(open) => !open && setAsked(null)}
        focusOnClose={() => selectRef.current?.focus()}
        title={asked ? ROLE_CHANGE[asked].title : ''}
        description={
          <>
            <span className="font-medium text-foreground">{user.email}</span>{' '}
            {asked && ROLE_CHANGE[asked].means}
          </>
        }
        confirmLabel={asked ? ROLE_CHANGE[asked].title : ''}
        onConfirm={() => change(asked ?? current)}
      />
    </div>
  );
}

const SELF_NOTE = 'You cannot change your own role; another admin can.';

/** What a confirmation says of each new role. */
const ROLE_CHANGE: Record<UserRole, { title: string; means: string }> = {
  admin: {
    title: 'Make admin',
    means: 'will manage every account: change roles, ban, delete and invite users.',
  },
  operator: {
    title: 'Make operator',
    means: "will use the server's provider key: import documents and read every conversation.",
  },
  user: {
    title: 'Make user',
    means: "will keep their account but lose the dashboard and the server's provider key.",
  },
};
