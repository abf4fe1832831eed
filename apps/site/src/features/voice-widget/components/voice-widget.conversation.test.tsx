import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PublicConfigContext, type PublicConfig } from '@/lib/public-config';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { CALL_ENDED_NOTICE_MS, CONNECT_TIMEOUT_MS } from '../lib/widget-state';
import { createFakeSdk, type FakeVoiceClient } from '../testing/fake-voice-client';
import { widgetTestConfig } from '../testing/public-config';
import { VoiceWidget } from './voice-widget';

// The widget's conversation (captions, transcript, typed questions), its timer and input level,
// cancelling CONNECTING..., the visible "Call ended" and the text chat, over the fake SDK client.

const config: PublicConfig = widgetTestConfig;

/**
 * Renders the widget (in StrictMode, as the site does: effects run twice); `configure` adjusts the
 * fake SDK client when the widget creates it.
 */
function renderWidget(configure?: (client: FakeVoiceClient) => void) {
  const sdk = createFakeSdk();
  const loadSdk: LoadVoiceSdk = async () => {
    const create = await sdk.loadSdk();
    return (key, url) => {
      const client = create(key, url) as FakeVoiceClient;
      configure?.(client);
      return client;
    };
  };
  const user = userEvent.setup();
  const view = render(
    <StrictMode>
      <PublicConfigContext.Provider value={config}>
        <button type="button">elsewhere</button>
        <VoiceWidget assistantId="asst_index" assistantName="CTO/CIO Assistant" loadSdk={loadSdk} />
      </PublicConfigContext.Provider>
    </StrictMode>,
  );
  return { sdk, user, ...view };
}

type Widget = ReturnType<typeof renderWidget>;

const engageButton = () => screen.getByRole('button', { name: 'ENGAGE' });
const status = () => screen.getByRole('status');
const politeAnnouncement = () => document.querySelector('[aria-live="polite"]');
const captions = () => screen.getByRole('list', { name: 'Captions' });

async function connect(t: Widget) {
  await t.user.click(engageButton());
  await screen.findByRole('button', { name: 'CONNECTING...' });
}

/** ENGAGE, the call starts, and the call panel (lazy) is on screen. */
async function inCall(t: Widget) {
  await connect(t);
  act(() => t.sdk.client.emit('call-start'));
  await screen.findByLabelText('Type a message');
}

beforeEach(() => {
  sessionStorage.clear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('VoiceWidget conversation', () => {
  it("shows the assistant's words as captions, each partial replaced, and announces only the final", async () => {
    const t = renderWidget();
    await inCall(t);
    expect(captions()).toHaveTextContent('Captions appear here');
    act(() => t.sdk.client.transcript('assistant', 'Hello', 'partial'));
    expect(captions()).toHaveTextContent(/^AssistantHello$/);
    expect(politeAnnouncement()).toHaveTextContent('');
    act(() => t.sdk.client.transcript('assistant', 'Hello, how can', 'partial'));
    expect(captions()).toHaveTextContent(/^AssistantHello, how can$/);
    act(() => t.sdk.client.transcript('assistant', 'Hello, how can I help?'));
    expect(within(captions()).getAllByRole('listitem')).toHaveLength(1);
    expect(captions()).toHaveTextContent('Hello, how can I help?');
    expect(politeAnnouncement()).toHaveTextContent('Assistant: Hello, how can I help?');
  });

  it('captions what the assistant said before the call panel had loaded, once', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => {
      t.sdk.client.emit('call-start');
      t.sdk.client.transcript('assistant', 'Hello from the start of the call.');
    });
    await screen.findByLabelText('Type a message');
    expect(
      within(captions())
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['AssistantHello from the start of the call.']);
    act(() => t.sdk.client.transcript('user', 'Hi.'));
    expect(within(captions()).getAllByRole('listitem')).toHaveLength(2);
  });

  it('captions the last two turns of both speakers; the whole transcript opens on request and folds with Escape', async () => {
    const t = renderWidget();
    await inCall(t);
    act(() => {
      t.sdk.client.transcript('assistant', 'Welcome.');
      t.sdk.client.transcript('user', 'What do you do?');
      t.sdk.client.transcript('assistant', 'I answer questions.');
    });
    const lines = () =>
      within(screen.getByRole('list', { name: /Captions|Transcript/ })).getAllByRole('listitem');
    expect(lines().map((li) => li.textContent)).toEqual([
      'YouWhat do you do?',
      'AssistantI answer questions.',
    ]);

    const toggle = screen.getByRole('button', { name: 'Show transcript' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await t.user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent('Hide transcript');
    const transcript = screen.getByRole('list', { name: 'Transcript' });
    expect(toggle).toHaveAttribute('aria-controls', transcript.id);
    expect(lines().map((li) => li.textContent)).toEqual([
      'AssistantWelcome.',
      'YouWhat do you do?',
      'AssistantI answer questions.',
    ]);
    await t.user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'END' })).toBeVisible();
  });

  it('a question typed in the box is sent with add-message on Enter, and the answer follows it in the transcript', async () => {
    const t = renderWidget();
    await inCall(t);
    const box = screen.getByLabelText('Type a message');
    expect(box).toHaveAttribute('placeholder', 'Type a message');
    await t.user.type(box, '  When do you open?  {Enter}');
    expect(t.sdk.client.sent).toEqual([
      { type: 'add-message', message: { role: 'user', content: 'When do you open?' } },
    ]);
    expect(box).toHaveValue('');
    expect(box).toHaveFocus();
    act(() => {
      t.sdk.client.transcript('user', 'When do you open?');
      t.sdk.client.transcript('assistant', 'At nine.', 'partial');
      t.sdk.client.transcript('assistant', 'At nine, every weekday.');
    });
    await t.user.click(screen.getByRole('button', { name: 'Show transcript' }));
    const items = within(screen.getByRole('list', { name: 'Transcript' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'YouWhen do you open?',
      'AssistantAt nine, every weekday.',
    ]);
    expect(politeAnnouncement()).toHaveTextContent('Assistant: At nine, every weekday.');
    // An empty Enter sends nothing.
    await t.user.type(box, '   {Enter}');
    expect(t.sdk.client.sent).toHaveLength(1);
  });

  it('keeps the question in the box with a message when it cannot be sent', async () => {
    const t = renderWidget();
    await inCall(t);
    t.sdk.client.sendError = new Error('no call');
    const box = screen.getByLabelText('Type a message');
    await t.user.type(box, 'Hello?{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Your message could not be sent. Try again.');
    expect(box).toHaveValue('Hello?');
    t.sdk.client.sendError = undefined;
    await t.user.click(screen.getByRole('button', { name: 'Ask' }));
    expect(t.sdk.client.sent).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the call's time, counting the seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const t = renderWidget();
    await inCall(t);
    const timer = screen.getByText(/^Call time/).parentElement!;
    expect(timer).toHaveTextContent('Call time 0:00');
    await act(() => vi.advanceTimersByTimeAsync(65_000));
    expect(timer).toHaveTextContent('Call time 1:05');
  });

  it("shows the microphone's live level, and none while muted", async () => {
    const t = renderWidget();
    await inCall(t);
    expect(t.sdk.client.levelObservers).toEqual([100]);
    const meter = screen.getByRole('meter', { name: 'Microphone level' });
    act(() => t.sdk.client.emit('local-volume-level', 0.42));
    expect(meter).toHaveAttribute('aria-valuenow', '42');
    await t.user.click(screen.getByRole('button', { name: 'Mute microphone' }));
    expect(meter).toHaveAttribute('aria-valuenow', '0');
    expect(meter).toHaveAttribute('aria-valuetext', 'muted');
  });

  it('a new call starts with empty captions', async () => {
    const t = renderWidget();
    await inCall(t);
    act(() => t.sdk.client.transcript('assistant', 'First call.'));
    await t.user.click(screen.getByRole('button', { name: 'END' }));
    await inCall(t);
    expect(captions()).toHaveTextContent('Captions appear here');
  });

  it('keeps the ended call readable and copyable until closed or the next call', async () => {
    const t = renderWidget();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await inCall(t);
    act(() => t.sdk.client.transcript('assistant', 'We open at nine.'));
    act(() => t.sdk.client.transcript('user', 'Thanks.'));
    await t.user.click(screen.getByRole('button', { name: 'END' }));
    act(() => t.sdk.client.emit('call-end'));
    expect(engageButton()).toBeVisible();
    const transcript = screen.getByRole('list', { name: 'Transcript' });
    expect(
      within(transcript)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['AssistantWe open at nine.', 'YouThanks.']);
    expect(screen.queryByLabelText('Type a message')).toBeNull();
    await t.user.click(screen.getByRole('button', { name: 'Copy transcript' }));
    expect(writeText).toHaveBeenCalledWith('Assistant: We open at nine.\nYou: Thanks.');
    // Still there once the "Call ended" notice has gone.
    await t.user.click(screen.getByRole('button', { name: 'Close transcript' }));
    expect(screen.queryByRole('list', { name: 'Transcript' })).toBeNull();
    expect(engageButton()).toHaveFocus();

    // A call ended by the far side is kept too, and the next call starts afresh.
    await inCall(t);
    act(() => t.sdk.client.transcript('assistant', 'Second call.'));
    act(() => t.sdk.client.emit('call-end'));
    expect(screen.getByRole('list', { name: 'Transcript' })).toHaveTextContent('Second call.');
    await inCall(t);
    expect(captions()).toHaveTextContent('Captions appear here');
  });

  it('moves through the call by keyboard: transcript, text box, Ask, mute, END', async () => {
    const t = renderWidget();
    await inCall(t);
    const end = screen.getByRole('button', { name: 'END' });
    expect(end).toHaveFocus();
    await t.user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Mute microphone' })).toHaveFocus();
    await t.user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Ask' })).toHaveFocus();
    await t.user.tab({ shift: true });
    expect(screen.getByLabelText('Type a message')).toHaveFocus();
    await t.user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Show transcript' })).toHaveFocus();
    // END is the only control whose name contains "end" (a page finding END by name finds one).
    expect(screen.getAllByRole('button').filter((b) => /end/i.test(b.textContent ?? ''))).toEqual([end]);
  });
});

describe('VoiceWidget cancelling CONNECTING...', () => {
  it('Escape cancels at once: the start is stopped, ENGAGE has the focus, and no timeout follows', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const t = renderWidget();
    await connect(t);
    expect(screen.getByRole('button', { name: 'CONNECTING...' })).toHaveFocus();
    await t.user.keyboard('{Escape}');
    expect(t.sdk.client.stopCalls).toBe(1);
    expect(engageButton()).toHaveFocus();
    expect(status()).toHaveTextContent('Call cancelled.');
    // The abandoned start reports its cancellation late: no message for it.
    act(() => t.sdk.client.emit('call-start-failed', { stage: 'daily-call-join', error: 'cancelled' }));
    await act(() => vi.advanceTimersByTimeAsync(CONNECT_TIMEOUT_MS + 1));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(engageButton()).toBeVisible();
  });

  it('Escape cancels even when the focus is elsewhere on the page', async () => {
    const t = renderWidget();
    await connect(t);
    await t.user.click(screen.getByRole('button', { name: 'elsewhere' }));
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(engageButton()).toBeVisible();
    expect(t.sdk.client.stopCalls).toBe(1);
  });

  it('cancelling while the SDK is still loading starts no call once it has loaded', async () => {
    const sdk = createFakeSdk();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const user = userEvent.setup();
    render(
      <PublicConfigContext.Provider value={config}>
        <VoiceWidget
          assistantId="asst_index"
          assistantName="CTO/CIO Assistant"
          loadSdk={() => gate.then(sdk.loadSdk)}
        />
      </PublicConfigContext.Provider>,
    );
    await user.click(engageButton());
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await act(async () => release());
    expect(sdk.client.started).toEqual([]);
    expect(engageButton()).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the visible Cancel does the same, and the next ENGAGE is not failed by the cancelled start', async () => {
    const starts: ((call: unknown) => void)[] = [];
    const t = renderWidget((client) => {
      client.startImpl = () => new Promise((resolve) => starts.push(resolve));
    });
    await connect(t);
    await t.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(t.sdk.client.stopCalls).toBe(1);
    expect(engageButton()).toHaveFocus();
    await connect(t);
    // The cancelled start gives up (null) only now, while the next one is connecting.
    await act(async () => starts[0]!(null));
    expect(screen.getByRole('button', { name: 'CONNECTING...' })).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => t.sdk.client.emit('call-start'));
    expect(screen.getByRole('button', { name: 'END' })).toBeVisible();
    expect(t.sdk.client.started).toHaveLength(2);
  });
});

describe('VoiceWidget call ended', () => {
  it('shows "Call ended." for a few seconds when the assistant or the network ends the call', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const t = renderWidget();
    await inCall(t);
    act(() => t.sdk.client.emit('call-end'));
    expect(status()).toHaveTextContent('Call ended.');
    expect(status()).not.toHaveClass('sr-only');
    expect(engageButton()).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(CALL_ENDED_NOTICE_MS - 100));
    expect(status()).toHaveTextContent('Call ended.');
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(status()).toHaveTextContent('');
    expect(status()).toHaveClass('sr-only');
  });

  it('only announces the end of a call the visitor ended', async () => {
    const t = renderWidget();
    await inCall(t);
    await t.user.click(screen.getByRole('button', { name: 'END' }));
    act(() => t.sdk.client.emit('call-end'));
    expect(status()).toHaveTextContent('Call ended.');
    expect(status()).toHaveClass('sr-only');
  });
});

describe('VoiceWidget text chat', () => {
  it('"Type instead" opens the text chat with the same assistant; closing it returns to ENGAGE', async () => {
    const t = renderWidget();
    await t.user.click(screen.getByRole('button', { name: 'Type instead' }));
    const chat = await screen.findByRole('region', { name: 'Chat with the CTO/CIO Assistant' });
    expect(within(chat).getByLabelText('Type a message')).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'ENGAGE' })).toBeNull();
    expect(t.sdk.loads).toBe(0);
    await t.user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: /Chat with/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Type instead' })).toHaveFocus();
    expect(engageButton()).toBeVisible();
  });

  it('a denied microphone offers typing instead, and the chat says why', async () => {
    const t = renderWidget();
    await connect(t);
    act(() =>
      t.sdk.client.emit('camera-error', { error: { type: 'permissions', msg: 'Permission denied' } }),
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Microphone access is blocked.');
    await t.user.click(within(alert).getByRole('button', { name: 'Type instead' }));
    const chat = await screen.findByRole('region', { name: 'Chat with the CTO/CIO Assistant' });
    expect(chat).toHaveTextContent('Microphone access is blocked — you can type instead.');
  });
});
