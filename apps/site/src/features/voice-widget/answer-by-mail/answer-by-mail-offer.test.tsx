import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatPanel } from '../chat/chat-panel';
import { memoryStorage } from '../testing/memory-storage';

// The chat's offer of an answer by mail: after a reply the assistant did not have, the visitor may
// leave an address (POST /api/answer-requests on Engage's server), or decline and go on.

const DONT_KNOW = "I don't know that from my documents.";

/** The provider answers `reply`; Engage's server answers `server` (status, body) to the request. */
function fakes(
  reply: string,
  server: { status: number; body: unknown } = { status: 201, body: { questions: 1, keepDays: 30 } },
) {
  const requests: { url: string; body: unknown }[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const href = String(url instanceof Request ? url.url : url);
    const body: unknown = url instanceof Request ? await url.clone().json() : JSON.parse(String(init?.body));
    requests.push({ url: href, body });
    if (href.endsWith('/api/answer-requests'))
      return new Response(JSON.stringify(server.body), {
        status: server.status,
        headers: { 'content-type': 'application/json' },
      });
    return new Response(
      JSON.stringify({ id: 'chat_1', sessionId: 'sess_1', output: [{ role: 'assistant', content: reply }] }),
      { status: 201, headers: { 'content-type': 'application/json' } },
    );
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests };
}

async function chatOnce(
  reply: string,
  options: { server?: Parameters<typeof fakes>[1]; offered?: boolean } = {},
) {
  const { fetch, requests } = fakes(reply, options.server);
  const user = userEvent.setup();
  render(
    <ChatPanel
      assistantId="asst_index"
      publicKey="pk_test"
      apiBaseUrl="https://engage.example/provider"
      onClose={() => undefined}
      fetch={fetch}
      storage={memoryStorage()}
      {...(options.offered !== false && { answerByMail: { origin: 'https://engage.example', keepDays: 30 } })}
    />,
  );
  await user.type(screen.getByRole('textbox', { name: 'Type a message' }), 'Do you open on Sundays?{Enter}');
  await within(screen.getByRole('list', { name: 'Conversation' })).findByText(reply);
  return { user, requests };
}

const offer = () => screen.queryByRole('form', { name: /owner to answer you by mail/ });

describe('the offer of an answer by mail', () => {
  it('takes an address after an answer the assistant did not have, and never shows it back', async () => {
    const { user, requests } = await chatOnce(DONT_KNOW);
    const form = offer()!;
    expect(form).toBeVisible();
    expect(
      within(form).getByText(
        "Used only to send you the owner's answer to this question, once. Deleted with this conversation after 30 days.",
      ),
    ).toBeVisible();
    const address = within(form).getByRole('textbox', { name: 'Your email address' });
    expect(address).toHaveAccessibleDescription(/Used only to send you/);

    await user.type(address, 'visitor@example.com');
    await user.click(within(form).getByRole('button', { name: 'Mail me the answer' }));
    expect(
      await screen.findByText(/the owner's answer will be mailed to the address you gave/),
    ).toBeVisible();
    expect(requests.at(-1)).toEqual({
      url: 'https://engage.example/api/answer-requests',
      body: { conversation: { kind: 'chat', id: 'chat_1' }, email: 'visitor@example.com' },
    });
    expect(document.body.textContent).not.toContain('visitor@example.com');
    expect(screen.queryByDisplayValue('visitor@example.com')).toBeNull();
  });

  it('refuses a malformed address in place, without sending it', async () => {
    const { user, requests } = await chatOnce(DONT_KNOW);
    const address = screen.getByRole('textbox', { name: 'Your email address' });
    await user.type(address, 'not an address');
    await user.click(screen.getByRole('button', { name: 'Mail me the answer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That does not look like an email address');
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(address).toHaveFocus();
    expect(address).toHaveValue('not an address');
    expect(requests.filter((r) => r.url.endsWith('/api/answer-requests'))).toHaveLength(0);
  });

  it("says the server's refusal (a limit reached) where the visitor looks, keeping the address typed", async () => {
    const { user } = await chatOnce(DONT_KNOW, {
      server: {
        status: 429,
        body: {
          error: 'rate_limited',
          message: 'This address has asked for enough answers today: try again tomorrow.',
        },
      },
    });
    const address = screen.getByRole('textbox', { name: 'Your email address' });
    await user.type(address, 'visitor@example.com');
    await user.click(screen.getByRole('button', { name: 'Mail me the answer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('enough answers today');
    expect(address).toHaveValue('visitor@example.com');
  });

  it('goes away when declined, the focus back in the message box', async () => {
    const { user } = await chatOnce(DONT_KNOW);
    await user.click(screen.getByRole('button', { name: 'No, thanks' }));
    expect(offer()).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Type a message' })).toHaveFocus();
  });

  it('is not made after an answer the assistant had', async () => {
    await chatOnce('We open at nine.');
    expect(offer()).toBeNull();
  });

  it('is not made when the site has no answers by mail', async () => {
    await chatOnce(DONT_KNOW, { offered: false });
    expect(offer()).toBeNull();
  });
});
