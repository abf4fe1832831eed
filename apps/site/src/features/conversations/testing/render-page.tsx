import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createEngageApi } from '@/lib/engage-api';
import { createConversationsApi } from '../api/conversations-api';
import { ConversationsPage } from '../components/conversations-page';

/** The page's client over a fetch (the provider fixture's, or one that answers some routes itself). */
export const fixtureApi = (fetch: typeof globalThis.fetch) =>
  createConversationsApi({
    baseUrl: 'https://site.test/api/provider',
    server: createEngageApi({ getAccessToken: () => 'token', fetch, origin: 'https://site.test' }),
  });

/**
 * /conversations as the app mounts it over `fetch`, for an operator unless `role` says otherwise
 * (`role: undefined`: a user without one); queries are not retried.
 */
export function renderConversationsPage(
  fetch: typeof globalThis.fetch,
  options: { role?: string | undefined; email?: string } = {},
) {
  const role = 'role' in options ? options.role : 'operator';
  const email = options.email ?? 'op@example.com';
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ConversationsPage
        api={fixtureApi(fetch)}
        userRole={role}
        email={email}
        siteAssistantIds={['asst-index']}
      />
    </QueryClientProvider>,
  );
}
