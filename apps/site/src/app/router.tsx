import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouteError } from '@/components/route-error';
import { paths } from '@/config/paths';
import { Layout } from './layout';
import { withQueries } from './with-queries';

/** Route modules load lazily: a visitor of one page downloads only that page's code. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { path: paths.home.path, lazy: () => import('./routes/home') },
          {
            // Sign-in required (SPEC §2): the guard shows the Protected Resource screen otherwise.
            // Loaded with the first guarded page: the landing page at / does not carry the auth card.
            lazy: () =>
              import('@/features/auth/components/route-guard').then((m) => ({ Component: m.RouteGuard })),
            children: [
              { path: paths.ediscovery.path, lazy: () => import('./routes/ediscovery') },
              { path: paths.onboarding.path, lazy: () => import('./routes/onboarding') },
              { path: paths.kbImport.path, lazy: withQueries(() => import('./routes/kb-import')) },
              { path: paths.admin.path, lazy: withQueries(() => import('./routes/admin')) },
            ],
          },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
