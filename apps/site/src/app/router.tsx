import { lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Outlet, Route, Routes, useLocation } from 'react-router';
import { LinkArrivalNotice } from '@/features/auth/components/link-arrival-notice';
import { RouteGuard } from '@/features/auth/components/route-guard';
import { SessionEndedNotice } from '@/features/auth/components/session-ended-notice';
import { usePublicConfig } from '@/lib/public-config';
import { onFirstInput, useSession } from '@/lib/session';
import { documentTitle, normalisePath } from './document-title';
import { Layout } from './layout';
import { RouteErrorBoundary } from './route-error-boundary';
import { notFoundPage, sitePages, sitePaths, type RouteModuleName } from './site-pages';
import { withQueries } from './with-queries';

type PageModule = { Component?: ComponentType | null };

interface Page {
  (): ReactNode;
  /** Starts loading the page's module (once); the route's page then renders without suspending. */
  preload(): Promise<ComponentType>;
}

/** A page from its lazily loaded route module (which exports `Component`). */
function page(load: () => Promise<PageModule>): Page {
  let loading: Promise<ComponentType> | undefined;
  let loaded: ComponentType | undefined;
  const preload = () =>
    (loading ??= load().then(({ Component }) => {
      if (!Component) throw new Error('The page module has no component.');
      loaded = Component;
      return Component;
    }));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Page() {
    // A module loaded already renders at once (no empty frame); the choice is fixed per mount.
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    return <Component />;
  }
  Page.preload = preload;
  return Page;
}

/** Route modules load lazily: a visitor of one page downloads only that page's code. */
const modules: Record<RouteModuleName, () => Promise<PageModule>> = {
  home: () => import('./routes/home'),
  ediscovery: () => import('./routes/ediscovery'),
  onboarding: () => import('./routes/onboarding'),
  'kb-import': withQueries(() => import('./routes/kb-import')),
  conversations: withQueries(() => import('./routes/conversations')),
  admin: withQueries(() => import('./routes/admin')),
  'not-found': () => import('./routes/not-found'),
  'accept-invite': () => import('./routes/accept-invite'),
  profile: () => import('./routes/profile'),
  'sign-in': () => import('./routes/sign-in'),
  'sign-up': () => import('./routes/sign-up'),
};

/** The site's pages (site-pages.ts), each with its lazily loaded component. */
const pages = new Map(sitePages.map((p) => [p.path, { ...p, Page: page(modules[p.module]) }]));
const NotFound = page(modules[notFoundPage.module]);
const pagesWhere = (guarded: boolean) => [...pages.values()].filter((p) => p.guarded === guarded);

export { sitePaths };

/** True for the pages behind the route guard (sign-in required). */
export const isGuarded = (pathname: string) => pages.get(normalisePath(pathname))?.guarded === true;

/**
 * Starts loading a location's page module (once) and resolves when it has loaded: main.tsx waits for
 * it before hydrating a prerendered public page, so hydration never suspends.
 */
export function preloadPage(pathname: string): Promise<unknown> {
  const target = pages.get(normalisePath(pathname))?.Page ?? NotFound;
  // A failed download is reported by the page's own render, through the error boundary.
  return target.preload().catch(() => {});
}

/**
 * Starts loading what a location shows, as the data router did: a guarded page's module loads while
 * the guard decides, so signing in shows the page at once; not for a visitor who is signed out (they
 * may never sign in, and the auth card comes first).
 */
function usePreload(pathname: string) {
  const { user, loading, prerender } = useSession();
  const eager = !isGuarded(pathname) || (!prerender && Boolean(user || loading));
  useEffect(() => {
    if (eager) void preloadPage(pathname);
    // Signed out: from the first input on (typing in the sign-in form), so signing in shows the page
    // at once, while the JavaScript before the first input stays the card's.
    else if (!prerender && !inputPreloads.has(pathname)) {
      inputPreloads.add(pathname);
      onFirstInput(() => void preloadPage(pathname));
    }
  }, [pathname, eager, prerender]);
}
const inputPreloads = new Set<string>();

/** The location's own document title (the prerendered pages carry the same one in their HTML). */
function useDocumentTitle(pathname: string) {
  const { siteTitle } = usePublicConfig();
  useEffect(() => {
    document.title = documentTitle(pathname, siteTitle);
  }, [pathname, siteTitle]);
}

/**
 * The page under the navigation; an error in it (or its failed download) keeps the navigation. A
 * session the auth service ended, or an address a mail link just confirmed, is announced above it.
 */
function PageOutlet() {
  const { pathname } = useLocation();
  return (
    <>
      <SessionEndedNotice />
      <LinkArrivalNotice />
      <RouteErrorBoundary resetKey={pathname}>
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </RouteErrorBoundary>
    </>
  );
}

const routes = (list: readonly { path: string; Page: Page }[]) =>
  list.map(({ path, Page }) => <Route key={path} path={path} element={<Page />} />);

/**
 * The site's routes, in react-router's declarative mode: no page uses loaders, actions or fetchers,
 * so the data router (about 15 kB gzip more) would only add weight to every landing page
 * (docs/decisions.md). Navigations run in a transition: the current page stays until the next
 * page's module has loaded.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  usePreload(pathname);
  useDocumentTitle(pathname);
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Routes>
        <Route element={<Layout />}>
          <Route element={<PageOutlet />}>
            <Route element={<RouteGuard />}>{routes(pagesWhere(true))}</Route>
            {routes(pagesWhere(false))}
            <Route path="*" element={<NotFound />} />
          </Route>
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}

/**
 * A guarded page's own content (below the navigation, as the route guard shows it to a signed-in
 * user): what the build renders for the server to send to a signed-in caller of a static guarded
 * page (app/entry-server.tsx, src/app/islands/guarded-page.ts).
 */
export function GuardedContent({ path }: { path: string }) {
  const found = pages.get(normalisePath(path));
  if (!found?.guarded) throw new Error(`${path} is not a guarded page.`);
  return <found.Page />;
}
