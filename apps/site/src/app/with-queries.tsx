import type { ComponentType } from 'react';

interface RouteModule {
  Component?: ComponentType | null;
  [key: string]: unknown;
}

/**
 * Wraps a lazy route module in the query cache's provider. TanStack Query loads with the pages that
 * read server data (kb import, admin), so the landing pages' initial JavaScript does not carry it
 * (docs/benchmarks.md). The cache is one for the whole site, whichever page created it.
 */
export function withQueries<M extends RouteModule>(load: () => Promise<M>) {
  return async (): Promise<M> => {
    const [module, { QueryProvider }] = await Promise.all([load(), import('./query-provider')]);
    const Page = module.Component;
    if (!Page) return module;
    const Component = () => (
      <QueryProvider>
        <Page />
      </QueryProvider>
    );
    return { ...module, Component };
  };
}
