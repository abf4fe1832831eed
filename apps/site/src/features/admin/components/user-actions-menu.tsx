import { Ban, Info, KeyRound, LogOut, Mail, MoreHorizontal, ShieldCheck } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import type { AdminUser } from '../api/client';
import { useUserAction, type UserAction } from '../api/queries';
import { formatDateTime } from '../lib/format';
import { actionToasts, BAN_DURATIONS } from '../lib/messages';
import { UserDetailsDialog } from './user-details-dialog';

type Open = null | 'details' | 'sign-out' | 'ban' | 'unban';

/** Whether the user is banned now (the server answers null for a ban that has run out). */
export const isBanned = (user: AdminUser) =>
  Boolean(user.banned_until && new Date(user.banned_until).getTime() > Date.now());

/** How long a ban lasts, chosen in the Ban dialog. */
function BanLength({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        Ban length
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-9 rounded-md border border-border bg-background px-2 text-sm shadow-xs focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
      >
        {BAN_DURATIONS.map((d) => (
          <option key={d.value} value={d.value}>
            {d.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A row's actions, as on Supabase's Users page: details, password recovery and sign-in links by
 * mail, sign out everywhere, ban or unban. The destructive ones confirm first; each ends in a toast.
 * The signed-in admin cannot ban or sign out their own account from here.
 */
export function UserActionsMenu({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const id = useId();
  const action = useUserAction();
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState<Open>(null);
  const [duration, setDuration] = useState<string>(BAN_DURATIONS[1].value);
  const banned = isBanned(user);

  async function run(kind: UserAction, success: string, ban?: string) {
    try {
      await action.mutateAsync({ id: user.id, action: kind, duration: ban });
      toast.success(success);
    } catch (error) {
      toast.error(actionToasts.failed, { description: error instanceof Error ? error.message : undefined });
    }
  }
  const close = () => setOpen(null);
  const dialogChange = (next: boolean) => !next && close();
  // The menu item that opened a dialog is gone when it closes: focus goes back to the menu button.
  const focusTrigger = () => trigger.current?.focus();
  const returnFocus = (event: Event) => {
    event.preventDefault();
    focusTrigger();
  };

  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button
            ref={trigger}
            variant="outline"
            size="sm"
            aria-label={`Actions for ${user.email}`}
            disabled={action.isPending}
          >
            <MoreHorizontal aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" portal={false}>
          <DropdownMenuLabel className="max-w-64 truncate">{user.email}</DropdownMenuLabel>
          <DropdownMenuItem onSelect={() => setOpen('details')}>
            <Info aria-hidden /> View details
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void run('recovery', actionToasts.recovery(user.email))}>
            <KeyRound aria-hidden /> Send password recovery
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void run('magic-link', actionToasts.magicLink(user.email))}>
            <Mail aria-hidden /> Send magic link
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem disabled={isSelf} onSelect={() => setOpen('sign-out')}>
            <LogOut aria-hidden /> Sign out everywhere
          </DropdownMenuItem>
          {banned ? (
            <DropdownMenuItem disabled={isSelf} onSelect={() => setOpen('unban')}>
              <ShieldCheck aria-hidden /> Unban user
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem variant="destructive" disabled={isSelf} onSelect={() => setOpen('ban')}>
              <Ban aria-hidden /> Ban user
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>

      <UserDetailsDialog
        user={user}
        open={open === 'details'}
        onOpenChange={(o) => !o && close()}
        onCloseAutoFocus={returnFocus}
      />

      <ConfirmRemove
        open={open === 'sign-out'}
        onOpenChange={dialogChange}
        focusOnClose={focusTrigger}
        title="Sign out everywhere"
        description={
          <>
            Every session of <span className="font-medium text-foreground">{user.email}</span> ends, on every
            device. They can sign in again.
          </>
        }
        confirmLabel="Sign out everywhere"
        variant="destructive"
        onConfirm={() => run('sign-out', actionToasts.signedOut(user.email))}
      />

      <ConfirmRemove
        open={open === 'ban'}
        onOpenChange={dialogChange}
        focusOnClose={focusTrigger}
        title="Ban user"
        description={
          <>
            <span className="font-medium text-foreground">{user.email}</span> is signed out everywhere and
            cannot sign in until the ban ends.
          </>
        }
        confirmLabel="Ban"
        variant="destructive"
        onConfirm={() => run('ban', actionToasts.banned(user.email), duration)}
      >
        <BanLength id={`${id}-duration`} value={duration} onChange={setDuration} />
      </ConfirmRemove>

      <ConfirmRemove
        open={open === 'unban'}
        onOpenChange={dialogChange}
        focusOnClose={focusTrigger}
        title="Unban user"
        description={
          <>
            <span className="font-medium text-foreground">{user.email}</span> is banned until{' '}
            {user.banned_until ? formatDateTime(user.banned_until) : '—'}. Lift the ban now?
          </>
        }
        confirmLabel="Unban"
        onConfirm={() => run('ban', actionToasts.unbanned(user.email), 'none')}
      />
    </>
  );
}
