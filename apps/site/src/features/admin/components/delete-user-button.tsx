import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import type { AdminUser } from '../api/client';
import { useDeleteUser } from '../api/queries';
import { DELETE_QUESTION, toasts } from '../lib/messages';

/** Delete, after the confirmation in an accessible dialog. An admin cannot delete itself. */
export function DeleteUserButton({
  user,
  isSelf,
  onDeleted,
  returnFocusTo,
}: {
  user: AdminUser;
  isSelf: boolean;
  onDeleted?: (id: string) => void;
  /** The id of an element to focus once the row (and with it this button) is gone. */
  returnFocusTo?: string;
}) {
  const remove = useDeleteUser();
  if (isSelf) {
    return (
      <Button variant="outline" size="sm" disabled title="You cannot delete your own account">
        <Trash2 aria-hidden /> Delete
      </Button>
    );
  }
  const focusList = () => {
    if (returnFocusTo) document.getElementById(returnFocusTo)?.focus();
  };
  // Failures are told in a toast (as the bulk actions do), so the dialog always closes; then keyboard
  // users are kept at the list's heading, since the row (or its busy button) is what they left.
  async function confirm() {
    try {
      await remove.mutateAsync(user.id);
      onDeleted?.(user.id);
      toast.success(toasts.deleted);
    } catch (error) {
      toast.error(toasts.deleteFailed, { description: error instanceof Error ? error.message : undefined });
    }
  }
  return (
    <ConfirmRemove
      trigger={
        <Button variant="outline" size="sm" aria-label={`Delete ${user.email}`} disabled={remove.isPending}>
          <Trash2 aria-hidden /> Delete
        </Button>
      }
      title="Delete user"
      description={
        <>
          {DELETE_QUESTION} <span className="font-medium text-foreground">{user.email}</span> will lose their
          account and sessions. This cannot be undone.
        </>
      }
      confirmLabel="Delete"
      variant="destructive"
      onConfirm={confirm}
      focusAfter={returnFocusTo ? focusList : undefined}
    />
  );
}
