import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { UserMenu } from '@/features/auth/components/user-menu';
import { usePublicConfig } from '@/lib/public-config';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-2 text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400',
    isActive && 'bg-white/10 text-white',
  );

/** The top navigation of SPEC §2, with the Admin link for admins and the signed-in user's menu. */
export function TopNav() {
  const { siteTitle } = usePublicConfig();
  // The Admin link follows the role the server put in app_metadata, not a hard-coded address.
  const { isAdmin } = useSession();
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-slate-950/95 text-white backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-1 px-4 py-2">
        <NavLink to={paths.home.path} end className="mr-3 text-base font-semibold tracking-wide text-white">
          {siteTitle}
        </NavLink>
        <NavLink to={paths.ediscovery.path} className={linkClass}>
          {paths.ediscovery.label}
        </NavLink>
        <NavLink to={paths.onboarding.path} className={linkClass}>
          {paths.onboarding.label}
        </NavLink>
        <NavLink
          to={paths.kbImport.path}
          className={({ isActive }) =>
            cn(linkClass({ isActive }), 'bg-sky-700 text-white hover:bg-sky-800', isActive && 'bg-sky-800')
          }
        >
          {paths.kbImport.label}
        </NavLink>
        {isAdmin && (
          <NavLink to={paths.admin.path} className={linkClass}>
            {paths.admin.label}
          </NavLink>
        )}
        <div className="ml-auto">
          <UserMenu />
        </div>
      </nav>
    </header>
  );
}
