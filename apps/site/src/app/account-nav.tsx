import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { UserMenu } from '@/features/auth/components/user-menu';
import { useSession } from '@/lib/session';

/**
 * The account part of the top navigation: the Admin link for admins and the signed-in user's menu.
 * top-nav.tsx loads it after the first render, so the session client (supabase-js), the menu's
 * Radix parts and sonner stay out of the landing pages' initial JavaScript (docs/benchmarks.md).
 */
export default function AccountNav({ linkClass }: { linkClass: (state: { isActive: boolean }) => string }) {
  // The Admin link follows the role the server put in app_metadata, not a hard-coded address.
  const { isAdmin } = useSession();
  return (
    <>
      {isAdmin && (
        <NavLink to={paths.admin.path} className={linkClass}>
          {paths.admin.label}
        </NavLink>
      )}
      <div className="ml-auto">
        <UserMenu />
      </div>
    </>
  );
}
