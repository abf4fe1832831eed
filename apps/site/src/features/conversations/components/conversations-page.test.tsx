import type { ProviderChat } from '@engage/http-contract/conversations';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { providerFixture } from '../testing/provider-fixture';
import { renderConversationsPage } from '../testing/render-page';

const T0 = Date.parse('2026-11-24T10:00:00.000Z');
const chat = (id: string, s: number, input: string, answer: string): ProviderChat => ({
  id,
  createdAt: new Date(T0 + s * 1000).toISOString(),
  assistantId: 'asst-index',
  sessionId: `s-${id}`,
  input,
  output: [{ role: 'assistant', content: answer }],
});

function renderPage(role: string | undefined, fixture = providerFixture()) {
  renderConversationsPage(fixture.fetch, { role, email: 'joe@example.com' });
  return fixture;
}

describe('ConversationsPage', () => {
  it('shows a user without the role "Operator access needed", and asks the provider nothing', () => {
    const fixture = renderPage(
      undefined,
      providerFixture({ chats: [chat('a', 1, 'Secret question', 'Ok.')] }),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Operator access needed' })).toBeInTheDocument();
    expect(screen.queryByText('Secret question')).toBeNull();
    expect(fixture.requests).toEqual([]);
  });

  it('lists, searches, opens a transcript and deletes a conversation after confirmation', async () => {
    const user = userEvent.setup();
    const fixture = renderPage(
      'operator',
      providerFixture({
        chats: [
          chat('a', 1, 'When are you open?', 'Nine to five.'),
          chat('b', 2, 'Where do I park?', 'Behind.'),
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Conversations' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    // Newest first, with the assistant's name from the provider.
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Where do I park?');
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Index Assistant');

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'nine to');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));

    await user.click(within(list).getByRole('button', { name: /When are you open\?/ }));
    const dialog = await screen.findByRole('dialog');
    const transcript = within(dialog).getByRole('list', { name: 'Transcript' });
    expect(
      within(transcript)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^Visitor.*When are you open\?$/),
      expect.stringMatching(/^Assistant.*Nine to five\.$/),
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete conversation' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this conversation?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('The conversation was deleted.')).toBeInTheDocument();
    expect(fixture.chats.map((c) => c.id)).toEqual(['b']);
    expect(fixture.requests.some((r) => r.method === 'DELETE' && r.path === '/chat/a')).toBe(true);
  });

  it('leaves out a call in which the visitor said nothing (no microphone, hung up at the greeting)', async () => {
    renderPage(
      'operator',
      providerFixture({
        calls: [
          {
            id: 'silent',
            createdAt: new Date(T0 + 3000).toISOString(),
            assistantId: 'asst-index',
            messages: [{ role: 'bot', message: 'Hello! Ask me anything.' }],
          },
        ],
        chats: [chat('a', 1, 'When are you open?', 'Nine to five.')],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Conversations' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(within(list).getByRole('listitem')).toHaveTextContent('When are you open?');
    expect(screen.queryByText('No question asked')).toBeNull();
  });

  it('says why a date range cannot be, by the dates', async () => {
    const user = userEvent.setup();
    renderPage('admin');
    await user.type(screen.getByLabelText('From'), '2026-11-05');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The start date must not be after the end date.',
    );
  });

  it('answers an unanswered question: the Answer box, Save answer, and the question leaves the list', async () => {
    const user = userEvent.setup();
    const fixture = renderPage(
      'operator',
      providerFixture({
        chats: [
          chat('a', 1, 'Where do I park?', "I don't know that from my documents."),
          chat('b', 2, 'where do I park', "I don't know that from my documents."),
          chat('c', 3, 'When are you open?', 'Nine to five.'),
        ],
      }),
    );
    // The tab says how many there are before it is opened.
    const tab = await screen.findByRole('tab', { name: 'Unanswered questions 1' });
    await user.click(tab);
    const list = await screen.findByRole('list', { name: 'Unanswered questions' });
    const item = within(list).getByRole('listitem', { name: 'where do I park' });
    expect(item).toHaveTextContent('asked 2 times');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);

    await user.click(within(item).getByRole('button', { name: 'Answer' }));
    await user.click(within(item).getByRole('button', { name: 'Save answer' }));
    expect(within(item).getByRole('alert')).toHaveTextContent('Type the answer first.');
    await user.type(within(item).getByRole('textbox', { name: 'Answer' }), 'Behind the building.');
    await user.click(within(item).getByRole('button', { name: 'Save answer' }));
    expect(await screen.findByText(/Answer saved/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Unanswered questions' })).toBeNull();
    expect(await screen.findByRole('tab', { name: 'Unanswered questions 0' })).toBeInTheDocument();
    // Saved by the server (POST /api/conversations/answers), which keeps the Answers document.
    expect(fixture.answers).toEqual([
      { assistantId: 'asst-index', question: 'where do I park', answer: 'Behind the building.' },
    ]);
    // The browser reads no call or chat for the tab and uploads nothing itself: the server does.
    expect(fixture.files.size).toBe(0);
    expect(
      fixture.requests
        .filter((r) => r.path.startsWith('/api/conversations') && r.path !== '/api/conversations/stats')
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([
      'GET /api/conversations/unanswered',
      'GET /api/conversations/answer-requests',
      'POST /api/conversations/answers',
      'GET /api/conversations/unanswered',
      'GET /api/conversations/answer-requests',
    ]);
  });

  it('dismisses small talk: the question leaves the list and the count, and nothing is answered', async () => {
    const user = userEvent.setup();
    const fixture = renderPage(
      'operator',
      providerFixture({
        chats: [
          chat('a', 1, 'Thanks!', "I don't know that from my documents."),
          chat('b', 2, 'Where do I park?', "I don't know that from my documents."),
        ],
      }),
    );
    await user.click(await screen.findByRole('tab', { name: 'Unanswered questions 2' }));
    const list = await screen.findByRole('list', { name: 'Unanswered questions' });
    const item = within(list).getByRole('listitem', { name: 'Thanks!' });
    await user.click(within(item).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('Dismissed: "Thanks!" is not listed again.')).toBeInTheDocument();
    expect(within(list).queryByRole('listitem', { name: 'Thanks!' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Unanswered questions' })).toHaveFocus();
    expect(await screen.findByRole('tab', { name: 'Unanswered questions 1' })).toBeInTheDocument();
    expect(fixture.dismissed).toEqual([{ assistantId: 'asst-index', question: 'Thanks!' }]);
    expect(fixture.answers).toEqual([]);
  });

  it("shows the server's reason next to the answer when it could not be saved, and keeps the question", async () => {
    const user = userEvent.setup();
    const fixture = providerFixture({
      chats: [chat('a', 1, 'Where do I park?', "I don't know that from my documents.")],
    });
    const failing: typeof fetch = async (input, init) =>
      String(input).endsWith('/api/conversations/answers')
        ? new Response(
            JSON.stringify({
              error: 'provider_error',
              message: 'The voice provider did not take the answer.',
            }),
            { status: 502, headers: { 'content-type': 'application/json' } },
          )
        : fixture.fetch(input, init);
    renderPage('operator', { ...fixture, fetch: failing });
    await user.click(screen.getByRole('tab', { name: /^Unanswered questions/ }));
    const item = await screen.findByRole('listitem', { name: 'Where do I park?' });
    await user.click(within(item).getByRole('button', { name: 'Answer' }));
    await user.type(within(item).getByRole('textbox', { name: 'Answer' }), 'Behind.');
    await user.click(within(item).getByRole('button', { name: 'Save answer' }));
    expect(await within(item).findByRole('alert')).toHaveTextContent(
      'The answer was not saved: The voice provider did not take the answer.',
    );
    expect(screen.getByRole('listitem', { name: 'Where do I park?' })).toBeInTheDocument();
  });

  it('shows "Operator access needed" when the proxy refuses the role', async () => {
    const fixture = providerFixture();
    const refusing: typeof fetch = async () =>
      new Response(JSON.stringify({ error: 'operator_required', message: 'no' }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      });
    renderPage('operator', { ...fixture, fetch: refusing });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Operator access needed' }),
    ).toBeInTheDocument();
  });
});
