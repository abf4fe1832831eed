import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../testing/memory-storage';
import { ChatPanel, type ChatPanelProps } from './chat-panel';
import { chatStorageKey } from './chat-storage';

/** A Storage over a Map, shared by the renders of one test (a reload keeps it, as a tab does). */

interface Sent {
  url: string;
  headers: Headers;
  body: { assistantId: string; input: string; sessionId?: string };
  signal: AbortSignal | null;
  respond: (response: Response | Error) => void;
}

/** A provider whose answers the test gives one request at a time. */
function fakeProvider() {
  const sent: Sent[] = [];
  const waiting: ((s: Sent) => void)[] = [];
  const fetch = vi.fn(
    (url: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        const request: Sent = {
          url: String(url),
          headers: new Headers(init?.headers),
          body: JSON.parse(String(init?.body)) as Sent['body'],
          signal: init?.signal ?? null,
          respond: (r) => (r instanceof Error ? reject(r) : resolve(r)),
        };
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        sent.push(request);
        waiting.shift()?.(request);
      }),
  );
  /** The next request (already sent, or the one about to be). */
  const next = (index: number) =>
    sent[index] ? Promise.resolve(sent[index]) : new Promise<Sent>((r) => waiting.push(r));
  return { fetch: fetch as unknown as typeof globalThis.fetch, sent, next };
}

const answer = (content: string, sessionId = 'sess_1') =>
  new Response(JSON.stringify({ id: 'chat_1', sessionId, output: [{ role: 'assistant', content }] }), {
    status: 201,
    headers: { 'content-type': 'application/json' },
  });

function renderPanel(props: Partial<ChatPanelProps> = {}) {
  const provider = fakeProvider();
  const storage = props.storage ?? memoryStorage();
  const onClose = vi.fn();
  const user = userEvent.setup();
  const all: ChatPanelProps = {
    assistantId: 'asst_index',
    assistantName: 'CTO/CIO Assistant',
    publicKey: 'pk_test',
    apiBaseUrl: 'http://localhost/provider',
    onClose,
    fetch: provider.fetch,
    storage,
    ...props,
  };
  const view = render(<ChatPanel {...all} />);
  return { ...provider, storage, onClose, user, props: all, ...view };
}

const box = () => screen.getByRole('textbox', { name: 'Type a message' });
const conversation = () => screen.getByRole('list', { name: 'Conversation' });

describe('ChatPanel', () => {
  it('opens with the focus in the text box, and says why when the microphone is unavailable', () => {
    renderPanel({ initialReason: 'microphone-denied' });
    expect(screen.getByRole('region', { name: 'Chat with the CTO/CIO Assistant' })).toBeVisible();
    expect(box()).toHaveFocus();
    expect(screen.getByText('Microphone access is blocked — you can type instead.')).toBeVisible();
  });

  it('says nothing about the microphone when the visitor chose to type', () => {
    renderPanel({ initialReason: 'chosen' });
    expect(screen.queryByText(/microphone/i)).toBeNull();
  });

  it('sends on Enter, shows the pending answer, then the answer, and announces it politely', async () => {
    const { user, next } = renderPanel();
    await user.type(box(), 'What do you do?{Enter}');

    const request = await next(0);
    expect(request.url).toBe('http://localhost/provider/chat/web');
    expect(request.headers.get('authorization')).toBe('Bearer pk_test');
    expect(request.body).toEqual({ assistantId: 'asst_index', input: 'What do you do?' });
    expect(box()).toHaveValue('');
    expect(box()).toHaveFocus();
    expect(conversation()).toHaveAttribute('aria-busy', 'true');
    expect(within(conversation()).getByText('What do you do?')).toBeVisible();
    expect(within(conversation()).getByText('The CTO/CIO Assistant is answering…')).toBeInTheDocument();

    await act(async () => request.respond(answer('I advise on technology.')));
    expect(await within(conversation()).findByText('I advise on technology.')).toBeVisible();
    expect(conversation()).toHaveAttribute('aria-busy', 'false');
    const live = document.querySelector('[aria-live="polite"]');
    expect(live).toHaveTextContent('The CTO/CIO Assistant says: I advise on technology.');
  });

  it("marks the conversation with its language (`lang`), and the panel's own texts stay English", async () => {
    const { user, next } = renderPanel({ lang: 'fr' });
    expect(box()).toHaveAttribute('lang', 'fr');
    await user.type(box(), 'Que faites-vous ?{Enter}');
    await act(async () => (await next(0)).respond(answer('Je conseille.')));
    expect(await within(conversation()).findByText('Je conseille.')).toHaveAttribute('lang', 'fr');
    expect(within(conversation()).getByText('Que faites-vous ?')).toHaveAttribute('lang', 'fr');
    expect(within(conversation()).getByText('You:').closest('[lang]')).toBeNull();
    expect(document.querySelector('[aria-live="polite"] [lang="fr"]')).toHaveTextContent('Je conseille.');
  });

  it('continues the same session on the next message', async () => {
    const { user, next } = renderPanel();
    await user.type(box(), 'First{Enter}');
    await act(async () => (await next(0)).respond(answer('One.', 'sess_42')));
    await within(conversation()).findByText('One.');
    await user.type(box(), 'Second{Enter}');
    expect((await next(1)).body).toEqual({
      assistantId: 'asst_index',
      input: 'Second',
      sessionId: 'sess_42',
    });
  });

  it('starts a new line on Shift+Enter instead of sending', async () => {
    const { user, fetch } = renderPanel();
    await user.type(box(), 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box()).toHaveValue('line one\nline two');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('tells only mouse-and-keyboard visitors about Shift+Enter, not phones', () => {
    const pointer = (fine: boolean) =>
      vi.stubGlobal('matchMedia', (query: string) => ({
        matches: fine && query.includes('pointer: fine'),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }));
    try {
      pointer(false);
      const phone = renderPanel();
      expect(screen.queryByText(/Shift\+Enter/)).toBeNull();
      phone.unmount();
      pointer(true);
      renderPanel();
      expect(screen.getByText('Enter sends · Shift+Enter for a new line')).toBeVisible();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends nothing for an empty message', async () => {
    const { user, fetch } = renderPanel();
    await user.type(box(), '   {Enter}');
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('counts characters and refuses a message over the limit with a clear error, keeping it', async () => {
    const { user, fetch } = renderPanel();
    const long = 'a'.repeat(2001);
    await user.click(box());
    await user.paste(long);
    expect(screen.getByText(/2,001 \/ 2,000/)).toBeVisible();
    expect(box()).toHaveAttribute('aria-invalid', 'true');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your message is too long: shorten it to 2,000 characters.',
    );
    expect(box()).toHaveValue(long);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a failure where the visitor types, puts the message back, and sends it again on Enter', async () => {
    const { user, next } = renderPanel();
    await user.type(box(), 'Are you there?{Enter}');
    await act(async () => (await next(0)).respond(new TypeError('Failed to fetch')));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not reach the assistant. Check your connection and try again. Your message is back in the box to send again.',
    );
    expect(box()).toHaveValue('Are you there?');
    expect(within(conversation()).queryByText('Are you there?')).toBeNull();

    await user.click(box());
    await user.keyboard('{Enter}');
    const retry = await next(1);
    expect(retry.body.input).toBe('Are you there?');
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => retry.respond(answer('Yes.')));
    expect(await within(conversation()).findByText('Yes.')).toBeVisible();
  });

  it("shows the provider's refusal in readable words", async () => {
    const { user, next } = renderPanel();
    await user.type(box(), 'Hi{Enter}');
    const refused = new Response(
      JSON.stringify({ message: 'Invalid Key', error: 'Unauthorized', statusCode: 401 }),
      {
        status: 401,
      },
    );
    await act(async () => (await next(0)).respond(refused));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The assistant refused this site’s key, so text chat is unavailable right now.',
    );
  });

  it('sends one message at a time', async () => {
    const { user, fetch } = renderPanel();
    await user.type(box(), 'One{Enter}');
    await user.type(box(), 'Two{Enter}');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(box()).toHaveValue('Two');
  });

  it('keeps the conversation and its session across a reload, per assistant', async () => {
    const first = renderPanel();
    await first.user.type(box(), 'Remember me{Enter}');
    await act(async () => (await first.next(0)).respond(answer('Noted.', 'sess_7')));
    await within(conversation()).findByText('Noted.');
    first.unmount();

    const again = renderPanel({ storage: first.storage });
    expect(within(conversation()).getByText('Remember me')).toBeVisible();
    expect(within(conversation()).getByText('Noted.')).toBeVisible();
    // A restored conversation is not read out again.
    expect(document.querySelector('[aria-live="polite"]')).toHaveTextContent('');
    await again.user.type(box(), 'Still there?{Enter}');
    expect((await again.next(0)).body.sessionId).toBe('sess_7');
    again.unmount();

    renderPanel({ storage: first.storage, assistantId: 'asst_other' });
    expect(within(conversation()).queryByText('Remember me')).toBeNull();
  });

  it('starts a new conversation (no session) on request, forgetting the stored one', async () => {
    const { user, next, storage } = renderPanel();
    await user.type(box(), 'Hello{Enter}');
    await act(async () => (await next(0)).respond(answer('Hi.', 'sess_1')));
    await within(conversation()).findByText('Hi.');
    await user.click(screen.getByRole('button', { name: 'New conversation' }));
    expect(within(conversation()).queryByText('Hi.')).toBeNull();
    expect(storage.getItem(chatStorageKey('asst_index'))).toBeNull();
    expect(box()).toHaveFocus();
    await user.type(box(), 'Again{Enter}');
    expect((await next(1)).body).toEqual({ assistantId: 'asst_index', input: 'Again' });
  });

  it('closes on Escape and with the close button', async () => {
    const { user, onClose } = renderPanel();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Close text chat' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('aborts the request still running when the panel closes', async () => {
    const { user, next, unmount } = renderPanel();
    await user.type(box(), 'Bye{Enter}');
    const request = await next(0);
    unmount();
    expect(request.signal?.aborted).toBe(true);
  });

  it('says so, and sends nothing, when the site has no public key', async () => {
    const { user, fetch } = renderPanel({ publicKey: null });
    expect(screen.getByText('Text chat is not configured on this site yet.')).toBeVisible();
    await user.type(box(), 'Hello{Enter}');
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('Text chat is not configured on this site yet.');
    expect(box()).toHaveValue('Hello');
  });
});
