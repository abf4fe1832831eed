import { Trash2 } from 'lucide-react';
import { useRef } from 'react';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import type { AdminUser } from '../api/client';
import { useDeleteUser } from '../api/queries';
import { DELETE_QUESTION, toasts } from '../lib/messages';

/** Delete, after the confirmation of SPEC §5 in an accessible dialog. An admin cannot delete itself. */
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
  // Set once Delete is confirmed (until a failure): the dialog then leaves focus to us, not to the doomed
  // trigger. Radix moves focus on a timer after closing, which may run before or after the deletion ends.
  const confirming = useRef(false);
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
  async function confirm() {
    confirming.current = true;
    try {
      await remove.mutateAsync(user.id);
      onDeleted?.(user.id);
      toast.success(toasts.deleted);
    } catch (error) {
      confirming.current = false;
      toast.error(toasts.deleteFailed, { description: error instanceof Error ? error.message : undefined });
    }
    // The row leaves the list (or its button is busy): keep keyboard users at the list's heading.
    focusList();
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Delete ${user.email}`} disabled={remove.isPending}>
          <Trash2 aria-hidden /> Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          if (!confirming.current || !returnFocusTo) return;
          event.preventDefault();
          focusList();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>Delete user</AlertDialogTitle>
          <AlertDialogDescription>
            {DELETE_QUESTION} <span className="font-medium text-foreground">{user.email}</span> will lose
            their account and sessions. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant="destructive" onClick={confirm}>
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
