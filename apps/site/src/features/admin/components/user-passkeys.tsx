import { useState } from 'react';
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
import type { AdminPasskey } from '../api/client';
import { useDeletePasskey, useUserPasskeys } from '../api/queries';
import { formatDateTime } from '../lib/format';

const nameOf = (p: AdminPasskey) => p.friendly_name || 'Unnamed passkey';

/** A user's passkeys in the details panel (issue 26): name, dates, and removal after a confirmation. */
export function UserPasskeys({ userId, email, open }: { userId: string; email: string; open: boolean }) {
  const passkeys = useUserPasskeys(userId, open);
  const remove = useDeletePasskey(userId);
  const [done, setDone] = useState<string | null>(null);

  if (passkeys.isPending) return <>Loading…</>;
  if (passkeys.isError)
    return <span className="text-destructive">Could not load: {passkeys.error.message}</span>;
  return (
    <div className="grid gap-2">
      {passkeys.data.length === 0 ? (
        'None'
      ) : (
        <ul className="grid gap-2" aria-label={`Passkeys of ${email}`}>
          {passkeys.data.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                {nameOf(p)}{' '}
                <span className="text-muted-foreground">
                  (added {formatDateTime(p.created_at)}, last used{' '}
                  {p.last_used_at ? formatDateTime(p.last_used_at) : 'never'})
                </span>
              </span>
              <AlertDialog>
                <AlertDialogTrigger asChild>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={remove.isPending}
                    aria-label={`Remove passkey ${nameOf(p)}`}
                  >
                    Remove
                  </Button>
                </AlertDialogTrigger>
                <AlertDialogContent>
                  <AlertDialogHeader>
                    <AlertDialogTitle>Remove this passkey?</AlertDialogTitle>
                    <AlertDialogDescription>
                      “{nameOf(p)}” will no longer sign {email} in. Their other sign-in methods stay.
                    </AlertDialogDescription>
                  </AlertDialogHeader>
                  <AlertDialogFooter>
                    <AlertDialogCancel>Cancel</AlertDialogCancel>
                    <AlertDialogAction
                      onClick={() =>
                        remove.mutate(p.id, {
                          onSuccess: (gone) => setDone(`Removed the passkey “${nameOf(gone)}”.`),
                        })
                      }
                    >
                      Remove
                    </AlertDialogAction>
                  </AlertDialogFooter>
                </AlertDialogContent>
              </AlertDialog>
            </li>
          ))}
        </ul>
      )}
      <div aria-live="polite">
        {remove.isError ? (
          <span className="text-destructive">{remove.error.message}</span>
        ) : (
          done && <span>{done}</span>
        )}
      </div>
    </div>
  );
}
