import { LogOut, Settings, UserRound } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useSession, useSupabase } from '@/lib/session';
import { avatarClass, initialOf } from '../avatar';
import { PasswordRecoveryDialog } from './password-recovery-dialog';

const itemClass =
  'flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm outline-none select-none data-[highlighted]:bg-slate-100';

/**
 * The signed-in user's avatar (their email's initial) and menu: Profile with the email, and Log out.
 * app/account-nav.tsx loads it when the menu is first opened (`defaultOpen`).
 */
export function UserMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const { user } = useSession();
  const supabase = useSupabase();
  if (!user) return null;
  const email = user.email ?? '';
  const initial = initialOf(email);
  const logOut = async () => {
    const { error } = await (await supabase()).auth.signOut();
    if (error) toast.error(error.message);
  };
  return (
    <>
      {/* Not modal and not portalled: a modal menu hides the rest of the page from assistive technology
          (aria-hidden on the header that holds the focused trigger, and on every landmark); here the
          menu stays inside the navigation landmark and the page keeps its landmarks while it is open. */}
      <DropdownMenu.Root defaultOpen={defaultOpen} modal={false}>
        <DropdownMenu.Trigger aria-label={`Account menu for ${email}`} className={avatarClass}>
          <span aria-hidden="true">{initial}</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 max-w-[var(--radix-dropdown-menu-content-available-width)] min-w-56 rounded-md border border-border bg-white p-1 text-slate-900 shadow-md"
        >
          <DropdownMenu.Label className="flex items-center gap-2 px-2 py-1.5 text-xs font-medium text-slate-600">
            <UserRound className="size-4" aria-hidden="true" />
            Profile
          </DropdownMenu.Label>
          <DropdownMenu.Item className={itemClass} onSelect={(e) => e.preventDefault()}>
            <span className="truncate" data-testid="profile-email">
              {email}
            </span>
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClass} asChild>
            <Link to="/profile">
              <Settings className="size-4" aria-hidden="true" />
              Profile and security
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item className={itemClass} onSelect={() => void logOut()}>
            <LogOut className="size-4" aria-hidden="true" />
            Log out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Root>
      <PasswordRecoveryDialog />
    </>
  );
}
