import { paths } from '@/config/paths';

/** A location's path as the route table matches it: no trailing slash, any case. */
export const normalisePath = (pathname: string) => pathname.replace(/\/+$/, '').toLowerCase() || '/';

/**
 * Each route's own name in the browser's tab, history and bookmarks, the one list of them:
 * the navigation's labels where the page has one. The home page is the owner's title alone.
 */
const pageNames: Record<string, string> = {
  [paths.ediscovery.path]: paths.ediscovery.label,
  [paths.onboarding.path]: paths.onboarding.label,
  [paths.kbImport.path]: 'Knowledge Base Import',
  [paths.conversations.path]: paths.conversations.label,
  [paths.admin.path]: paths.admin.label,
  '/profile': 'Profile',
  '/accept-invite': 'Accept your invitation',
  [paths.signIn.path]: paths.signIn.label,
  [paths.signUp.path]: paths.signUp.label,
};

/**
 * The document title of a location: "Admin · Engage", the owner's title (config.siteTitle) after the
 * page's name. Used by the app on every navigation and by the build for the prerendered pages.
 */
export function documentTitle(pathname: string, siteTitle: string): string {
  const path = normalisePath(pathname);
  if (path === paths.home.path) return siteTitle;
  return `${pageNames[path] ?? 'Page not found'} · ${siteTitle}`;
}
