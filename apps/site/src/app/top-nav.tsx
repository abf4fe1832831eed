import { NavLink } from 'react-router';
import { paths } from '@/config/paths';
import { usePublicConfig } from '@/lib/public-config';
import { AccountNav } from './account-nav';

// Plain class strings without conflicting utilities: no class merging (tailwind-merge) is needed,
// which keeps it out of the landing pages' initial JavaScript.
const linkBase =
  'rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `${linkBase} ${isActive ? 'bg-white/10 text-white' : 'text-slate-200 hover:bg-white/10 hover:text-white'}`;

const highlightedLinkClass = ({ isActive }: { isActive: boolean }) =>
  `${linkBase} text-white ${isActive ? 'bg-sky-800' : 'bg-sky-700 hover:bg-sky-800'}`;

/** The top navigation of SPEC §2, with the Admin link for admins and the signed-in user's menu. */
export function TopNav() {
  const { siteTitle } = usePublicConfig();
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
        <NavLink to={paths.kbImport.path} className={highlightedLinkClass}>
          {paths.kbImport.label}
        </NavLink>
        <AccountNav linkClass={linkClass} />
      </nav>
    </header>
  );
}
