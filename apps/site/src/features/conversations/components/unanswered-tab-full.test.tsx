import type { ProviderChat } from '@engage/http-contract/conversations';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createConversationsApi } from '../api/conversations-api';
import { providerFixture } from '../testing/provider-fixture';
import { ConversationsPage } from './conversations-page';

// The Answers file has a size limit on the server (413 answers_file_full): the operator who saves
// an answer then reads why, next to the answer they typed, which stays there.

const FULL =
  'The Answers file is full: with this answer it would be 301 kB, over its limit of 300 kB ' +
  "(the voice provider's advice for a knowledge-base file). Nothing was saved. Replacing an answer " +
  'already in it with a shorter one makes room.';

const chat: ProviderChat = {
  id: 'a',
  createdAt: '2026-11-24T10:00:01.000Z',
  assistantId: 'asst-index',
  sessionId: 's-a',
  input: 'Where do I park?',
  output: [{ role: 'assistant', content: "I don't know that from my documents." }],
};

describe('Save answer when the Answers file is full', () => {
  it("shows the server's message next to the answer, keeps the answer and the question", async () => {
    const user = userEvent.setup();
    const fixture = providerFixture({ chats: [chat] });
    const full: typeof fetch = async (input, init) =>
      String(input).endsWith('/api/conversations/answers')
        ? new Response(JSON.stringify({ error: 'answers_file_full', message: FULL }), {
            status: 413,
            headers: { 'content-type': 'application/json' },
          })
        : fixture.fetch(input, init);
    const api = createConversationsApi({
      baseUrl: 'https://site.test/api/provider',
      getToken: () => 'token',
      fetch: full,
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ConversationsPage
          api={api}
          userRole="operator"
          email="op@example.com"
          siteAssistantIds={['asst-index']}
        />
      </QueryClientProvider>,
    );
    await user.click(screen.getByRole('tab', { name: 'Unanswered questions' }));
    const item = await screen.findByRole('listitem', { name: 'Where do I park?' });
    await user.click(within(item).getByRole('button', { name: 'Answer' }));
    const box = within(item).getByRole('textbox', { name: 'Answer' });
    await user.type(box, 'Behind the building.');
    await user.click(within(item).getByRole('button', { name: 'Save answer' }));

    const alert = await within(item).findByRole('alert');
    expect(alert).toHaveTextContent(FULL, { normalizeWhitespace: true });
    expect(alert.textContent).toBe(FULL);
    expect(box).toHaveAccessibleDescription(FULL);
    expect(box).toHaveValue('Behind the building.');
    expect(screen.getByRole('listitem', { name: 'Where do I park?' })).toBeInTheDocument();
  });
});
