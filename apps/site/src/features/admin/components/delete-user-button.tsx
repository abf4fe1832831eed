import { Trash2 } from 'lucide-react';
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
}: {
  user: AdminUser;
  isSelf: boolean;
  onDeleted?: (id: string) => void;
}) {
  const remove = useDeleteUser();
  if (isSelf) {
    return (
      <Button variant="outline" size="sm" disabled title="You cannot delete your own account">
        <Trash2 aria-hidden /> Delete
      </Button>
    );
  }
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
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Delete ${user.email}`} disabled={remove.isPending}>
          <Trash2 aria-hidden /> Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
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
