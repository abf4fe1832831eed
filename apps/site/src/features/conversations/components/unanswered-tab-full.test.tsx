import type { ProviderChat } from '@engage/http-contract/conversations';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { providerFixture } from '../testing/provider-fixture';
import { renderConversationsPage } from '../testing/render-page';

// The Answers file has a size limit on the server (413 answers_file_full): the operator who saves
// an answer then reads why, next to the answer they typed, which stays there. So does one whose save
// met another save of the same assistant's Answers (409 save_in_progress).

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

/** Types an answer to the question and saves it, the server answering `status` with `body`. */
async function saveAnswered(status: number, body: { error: string; message: string }) {
  const user = userEvent.setup();
  const fixture = providerFixture({ chats: [chat] });
  const refusing: typeof fetch = async (input, init) =>
    String(input).endsWith('/api/conversations/answers')
      ? new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
      : fixture.fetch(input, init);
  renderConversationsPage(refusing);
  await user.click(screen.getByRole('tab', { name: /^Unanswered questions/ }));
  const item = await screen.findByRole('listitem', { name: 'Where do I park?' });
  await user.click(within(item).getByRole('button', { name: 'Answer' }));
  const box = within(item).getByRole('textbox', { name: 'Answer' });
  await user.type(box, 'Behind the building.');
  await user.click(within(item).getByRole('button', { name: 'Save answer' }));
  return { item, box };
}

describe('Save answer when the Answers file is full', () => {
  it("shows the server's message next to the answer, keeps the answer and the question", async () => {
    const { item, box } = await saveAnswered(413, { error: 'answers_file_full', message: FULL });

    const alert = await within(item).findByRole('alert');
    expect(alert).toHaveTextContent(FULL, { normalizeWhitespace: true });
    expect(alert.textContent).toBe(FULL);
    expect(box).toHaveAccessibleDescription(FULL);
    expect(box).toHaveValue('Behind the building.');
    expect(screen.getByRole('listitem', { name: 'Where do I park?' })).toBeInTheDocument();
  });
});

describe('Save answer while another answer for the assistant is being saved', () => {
  it('says so next to the answer (409 save_in_progress), and keeps the answer to save again', async () => {
    const BUSY = 'Another answer for this assistant is being saved. Try again in a moment.';
    const { item, box } = await saveAnswered(409, { error: 'save_in_progress', message: BUSY });

    const alert = await within(item).findByRole('alert');
    expect(alert.textContent).toBe(`The answer was not saved: ${BUSY}`);
    expect(box).toHaveAccessibleDescription(`The answer was not saved: ${BUSY}`);
    expect(box).toHaveValue('Behind the building.');
    expect(within(item).getByRole('button', { name: 'Save answer' })).toBeEnabled();
  });
});
