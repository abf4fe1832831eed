import type { AnswerRequestView, ProviderChat } from '@engage/http-contract/conversations';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { providerFixture } from '../testing/provider-fixture';
import { renderConversationsPage } from '../testing/render-page';

// On the Unanswered tab, a question a visitor left an address for says who is waiting; the list can
// be narrowed to those; saving the answer mails it, and a failed mail is shown and sent again.

const DONT_KNOW = "I don't know that from my documents.";
const chat = (id: string, input: string, at: string): ProviderChat => ({
  id,
  createdAt: at,
  assistantId: 'asst-index',
  sessionId: `s-${id}`,
  input,
  output: [{ role: 'assistant', content: DONT_KNOW }],
});

const waiting: AnswerRequestView = {
  id: 'r1',
  assistantId: 'asst-index',
  question: 'Do you open on Sundays?',
  questionKey: 'asst-index\ndo you open on sundays',
  email: 'visitor@example.com',
  requestedAt: '2026-11-24T10:00:05.000Z',
  answeredAt: null,
  sentAt: null,
  sendError: null,
};

function renderTab(options: { mailFails?: boolean } = {}) {
  const fixture = providerFixture({
    chats: [
      chat('a', 'Do you open on Sundays?', '2026-11-24T10:00:01.000Z'),
      chat('b', 'Where do I park?', '2026-11-24T09:00:01.000Z'),
    ],
    answerRequests: [{ ...waiting }],
    ...(options.mailFails !== undefined && { mailFails: options.mailFails }),
  });
  renderConversationsPage(fixture.fetch, { role: 'admin', email: 'boss@example.com' });
  return { fixture, user: userEvent.setup() };
}

async function answer(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(screen.getByRole('tab', { name: /^Unanswered questions/ }));
  const item = await screen.findByRole('listitem', { name: 'Do you open on Sundays?' });
  await within(item).findByText('waiting: visitor@example.com');
  await user.click(within(item).getByRole('button', { name: 'Answer' }));
  await user.type(within(item).getByRole('textbox', { name: 'Answer' }), text);
  await user.click(within(item).getByRole('button', { name: 'Save and mail answer' }));
}

describe('answers by mail on the Unanswered tab', () => {
  it('says who is waiting, narrows the list to them, and mails the saved answer', async () => {
    const { user, fixture } = renderTab();
    await user.click(screen.getByRole('tab', { name: /^Unanswered questions/ }));
    const list = await screen.findByRole('list', { name: 'Unanswered questions' });
    await within(list).findByText('waiting: visitor@example.com');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);

    await user.click(screen.getByRole('checkbox', { name: 'Only questions a visitor is waiting on (1)' }));
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Do you open on Sundays?']);
    await user.click(screen.getByRole('checkbox', { name: /Only questions a visitor is waiting on/ }));

    await answer(user, 'Yes, from 10 to 4.');
    expect(
      await screen.findByText(
        'Answer saved: "Do you open on Sundays?" is answered from now on. Mailed to 1 waiting visitor.',
      ),
    ).toBeInTheDocument();
    const mailed = await screen.findByRole('listitem', {
      name: 'Do you open on Sundays? to visitor@example.com',
    });
    expect(await within(mailed).findByText(/^Answer sent/)).toBeVisible();
    expect(fixture.answerRequests[0]!.sentAt).not.toBeNull();
  });

  it('shows a failed mail with its reason, and sends it again', async () => {
    const { user, fixture } = renderTab({ mailFails: true });
    await answer(user, 'Yes, from 10 to 4.');
    expect(await screen.findByText(/1 mail could not be sent: see Answers by mail\./)).toBeInTheDocument();
    const mailed = await screen.findByRole('listitem', {
      name: 'Do you open on Sundays? to visitor@example.com',
    });
    expect(await within(mailed).findByText(/Not sent: connect ECONNREFUSED/)).toBeVisible();

    // Still down: the retry says so where the operator looks.
    await user.click(within(mailed).getByRole('button', { name: 'Send again' }));
    expect(await within(mailed).findByRole('alert')).toHaveTextContent('The mail could not be sent');

    fixture.mail.fails = false;
    await user.click(within(mailed).getByRole('button', { name: 'Send again' }));
    expect(await within(mailed).findByText(/^Answer sent/)).toBeVisible();
  });
});
