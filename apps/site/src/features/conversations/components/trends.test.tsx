import type { ProviderChat } from '@engage/http-contract/conversations';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ConversationsApiContext } from '../hooks/queries';
import { providerFixture } from '../testing/provider-fixture';
import { fixtureApi } from '../testing/render-page';
import { Trends } from './trends';

// The dashboard /conversations opens on: the figures of a period, its charts, and each chart's
// table view (what a screen reader reads, and anyone who wants the numbers).

const today = new Date().toISOString().slice(0, 10);
const chat = (id: string): ProviderChat => ({
  id,
  createdAt: `${today}T00:00:01.000Z`,
  assistantId: 'asst-index',
  sessionId: `s-${id}`,
  input: 'Hello',
  output: [{ role: 'assistant', content: 'Hi.' }],
});

function renderTrends(fetchImpl?: (fixture: ReturnType<typeof providerFixture>) => typeof fetch) {
  const fixture = providerFixture({ chats: [chat('a'), chat('b')] });
  const api = fixtureApi(fetchImpl ? fetchImpl(fixture) : fixture.fetch);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ConversationsApiContext.Provider value={api}>
        <Trends />
      </ConversationsApiContext.Provider>
    </QueryClientProvider>,
  );
  return { fixture, user: userEvent.setup() };
}

describe('Trends', () => {
  it('shows the last 30 days by default, with a table view of each chart, and switches to 7', async () => {
    const { fixture, user } = renderTrends();
    const trends = screen.getByRole('region', { name: 'Trends' });
    expect(await within(trends).findByText('The last 30 days.')).toBeInTheDocument();
    const conversations = within(trends).getByText('Conversations', { selector: 'dt' });
    expect(conversations.nextElementSibling).toHaveTextContent('2');
    expect(within(trends).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

    const figure = within(trends).getByRole('figure', { name: 'Conversations per day' });
    await user.click(within(figure).getByText('Table view'));
    const table = within(figure).getByRole('table', { name: 'Conversations per day' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    const last = within(table).getAllByRole('row').at(-1)!;
    expect(
      within(last)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['0', '2']);

    await user.click(within(trends).getByRole('button', { name: '7 days' }));
    expect(await within(trends).findByText('The last 7 days.')).toBeInTheDocument();
    expect(
      fixture.requests.filter((r) => r.path === '/api/conversations/stats').map((r) => r.query.days),
    ).toEqual(['30', '7']);
    expect(within(trends).getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('says so while the server is still reading the conversations, and asks again until it is done', async () => {
    let reading = true;
    renderTrends((fixture) => async (input, init) => {
      const response = await fixture.fetch(input, init);
      if (!String(input).includes('/api/conversations/stats') || !reading) return response;
      reading = false;
      const body = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...body, indexedAt: null }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    expect(await screen.findByText(/Still reading the conversations from the provider/)).toBeInTheDocument();
    expect(await screen.findByText('The last 30 days.', {}, { timeout: 6_000 })).toBeInTheDocument();
  });

  it('says why the trends could not be loaded, and tries again', async () => {
    let fail = true;
    const { user } = renderTrends(
      (fixture) => async (input, init) =>
        fail && String(input).includes('/api/conversations/stats')
          ? new Response(
              JSON.stringify({ error: 'database_unavailable', message: 'The database is not answering.' }),
              {
                status: 503,
                headers: { 'content-type': 'application/json' },
              },
            )
          : fixture.fetch(input, init),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The trends could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The last 30 days.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
