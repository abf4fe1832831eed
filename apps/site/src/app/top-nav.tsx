import { Menu, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { usePublicConfig } from '@/lib/public-config';
import { AccountNav, AdminLink, ConversationsLink, VisitorLinks } from './account-nav';
import { attachSiteMenu, type SiteMenu } from './site-menu';

// Plain class strings without conflicting utilities: no class merging (tailwind-merge) is needed,
// which keeps it out of the landing pages' initial JavaScript.
const linkBase =
  'rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `${linkBase} ${isActive ? 'bg-white/10 text-white' : 'text-slate-200 hover:bg-white/10 hover:text-white'}`;

/** The one call to action of the bar: a visitor's Sign up. */
const highlightedLinkClass = ({ isActive }: { isActive: boolean }) =>
  `${linkBase} text-white ${isActive ? 'bg-sky-800' : 'bg-sky-700 hover:bg-sky-800'}`;

/** The id of the phone menu's panel, which its button controls. */
export const SITE_MENU_ID = 'site-menu';

/** The page links: inline on wide screens, stacked in the phone menu's panel. */
function SiteLinks() {
  return (
    <>
      <NavLink to={paths.ediscovery.path} className={linkClass}>
        {paths.ediscovery.label}
      </NavLink>
      <NavLink to={paths.onboarding.path} className={linkClass}>
        {paths.onboarding.label}
      </NavLink>
      <NavLink to={paths.kbImport.path} className={linkClass}>
        {paths.kbImport.label}
      </NavLink>
      <ConversationsLink linkClass={linkClass} />
      <AdminLink linkClass={linkClass} />
    </>
  );
}

/**
 * The top navigation, with the Admin link for admins and the signed-in user's menu. Below
 * the md breakpoint the links fold into a disclosure (a Menu button and the panel it controls), so
 * the bar stays one row on a phone; the avatar stays in the bar.
 */
export function TopNav() {
  const { siteTitle } = usePublicConfig();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const menu = useRef<SiteMenu | null>(null);
  useEffect(() => {
    if (!button.current || !panel.current) return undefined;
    const attached = attachSiteMenu(button.current, panel.current);
    menu.current = attached;
    return attached.detach;
  }, []);
  // Following a link (any route change) folds the menu.
  const { pathname } = useLocation();
  useEffect(() => menu.current?.close(), [pathname]);

  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-slate-950/95 text-white backdrop-blur">
      <nav aria-label="Main" className="mx-auto max-w-6xl px-4 py-2">
        <div className="flex items-center gap-1">
          <NavLink
            to={paths.home.path}
            end
            className="mr-3 min-w-0 truncate text-base font-semibold tracking-wide text-white"
          >
            {siteTitle}
          </NavLink>
          <div className="hidden md:flex md:flex-wrap md:items-center md:gap-1">
            <SiteLinks />
          </div>
          <AccountNav>
            <VisitorLinks
              className="hidden md:flex"
              linkClass={linkClass}
              signUpClass={highlightedLinkClass}
            />
          </AccountNav>
          <button
            ref={button}
            type="button"
            aria-expanded={false}
            aria-controls={SITE_MENU_ID}
            className="site-menu-button group ml-1 inline-flex h-9 shrink-0 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-slate-200 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400 md:hidden"
          >
            {/* Both drawn; the button's aria-expanded (site-menu.ts sets it) shows the right one. */}
            <Menu className="size-4 group-aria-expanded:hidden" aria-hidden />
            <X className="hidden size-4 group-aria-expanded:block" aria-hidden />
            Menu
          </button>
        </div>
        <div
          ref={panel}
          id={SITE_MENU_ID}
          className="site-menu-panel hidden flex-col gap-1 border-t border-white/10 pt-2 pb-1 mt-2 md:hidden"
        >
          <SiteLinks />
          <VisitorLinks className="flex flex-col gap-1" linkClass={linkClass} signUpClass={linkClass} />
        </div>
      </nav>
    </header>
  );
}
