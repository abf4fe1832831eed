import { act, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  captions,
  connect,
  engageButton,
  inCall,
  politeAnnouncement,
  renderWidget,
  typeIn,
  widget,
} from '../testing/render-widget';

// The widget's conversation (captions, transcript, typed questions), its timer and input level,
// over the fake SDK client.

describe('The widget: conversation', () => {
  it("shows the assistant's words as captions, each partial replaced, and announces only the final", async () => {
    const t = renderWidget({ strict: true });
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
    const t = renderWidget({ strict: true });
    await connect(t);
    act(() => {
      t.sdk.client.emit('call-start');
      t.sdk.client.transcript('assistant', 'Hello from the start of the call.');
    });
    await widget.findByLabelText('Type a message');
    expect(
      within(captions())
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['AssistantHello from the start of the call.']);
    act(() => t.sdk.client.transcript('user', 'Hi.'));
    expect(within(captions()).getAllByRole('listitem')).toHaveLength(2);
  });

  it('captions the last two turns of both speakers; the whole transcript opens on request and folds with Escape', async () => {
    const t = renderWidget({ strict: true });
    await inCall(t);
    act(() => {
      t.sdk.client.transcript('assistant', 'Welcome.');
      t.sdk.client.transcript('user', 'What do you do?');
      t.sdk.client.transcript('assistant', 'I answer questions.');
    });
    const lines = () =>
      within(widget.getByRole('list', { name: /Captions|Transcript/ })).getAllByRole('listitem');
    expect(lines().map((li) => li.textContent)).toEqual([
      'YouWhat do you do?',
      'AssistantI answer questions.',
    ]);

    const toggle = widget.getByRole('button', { name: 'Show transcript' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await t.user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveTextContent('Hide transcript');
    const transcript = widget.getByRole('list', { name: 'Transcript' });
    expect(toggle).toHaveAttribute('aria-controls', transcript.id);
    expect(lines().map((li) => li.textContent)).toEqual([
      'AssistantWelcome.',
      'YouWhat do you do?',
      'AssistantI answer questions.',
    ]);
    await t.user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(widget.getByRole('button', { name: 'END' })).toBeVisible();
  });

  it('a question typed in the box is sent with add-message on Enter, and the answer follows it in the transcript', async () => {
    const t = renderWidget({ strict: true });
    await inCall(t);
    const box = widget.getByLabelText('Type a message');
    expect(box).toHaveAttribute('placeholder', 'Type a message');
    typeIn(box, '  When do you open?  {Enter}');
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
    await t.user.click(widget.getByRole('button', { name: 'Show transcript' }));
    const items = within(widget.getByRole('list', { name: 'Transcript' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'YouWhen do you open?',
      'AssistantAt nine, every weekday.',
    ]);
    expect(politeAnnouncement()).toHaveTextContent('Assistant: At nine, every weekday.');
    // An empty Enter sends nothing.
    typeIn(box, '   {Enter}');
    expect(t.sdk.client.sent).toHaveLength(1);
  });

  it('keeps the question in the box with a message when it cannot be sent', async () => {
    const t = renderWidget({ strict: true });
    await inCall(t);
    t.sdk.client.sendError = new Error('no call');
    const box = widget.getByLabelText('Type a message');
    typeIn(box, 'Hello?{Enter}');
    expect(widget.getByRole('alert')).toHaveTextContent('Your message could not be sent. Try again.');
    expect(box).toHaveValue('Hello?');
    t.sdk.client.sendError = undefined;
    await t.user.click(widget.getByRole('button', { name: 'Ask' }));
    expect(t.sdk.client.sent).toHaveLength(1);
    expect(widget.queryByRole('alert')).toBeNull();
  });

  it("shows the call's time, counting the seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const t = renderWidget({ strict: true });
    await inCall(t);
    const timer = widget.getByText(/^Call time/).parentElement!;
    expect(timer).toHaveTextContent('Call time 0:00');
    await act(() => vi.advanceTimersByTimeAsync(65_000));
    expect(timer).toHaveTextContent('Call time 1:05');
  });

  it("shows the microphone's live level, and none while muted", async () => {
    const t = renderWidget({ strict: true });
    await inCall(t);
    expect(t.sdk.client.levelObservers).toEqual([100]);
    const meter = widget.getByRole('meter', { name: 'Microphone level' });
    act(() => t.sdk.client.emit('local-volume-level', 0.42));
    expect(meter).toHaveAttribute('aria-valuenow', '42');
    await t.user.click(widget.getByRole('button', { name: 'Mute microphone' }));
    expect(meter).toHaveAttribute('aria-valuenow', '0');
    expect(meter).toHaveAttribute('aria-valuetext', 'muted');
  });

  it('a new call starts with empty captions', async () => {
    const t = renderWidget({ strict: true });
    await inCall(t);
    act(() => t.sdk.client.transcript('assistant', 'First call.'));
    await t.user.click(widget.getByRole('button', { name: 'END' }));
    await inCall(t);
    expect(captions()).toHaveTextContent('Captions appear here');
  });

  it('keeps the ended call readable and copyable until closed or the next call', async () => {
    const t = renderWidget({ strict: true });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await inCall(t);
    act(() => t.sdk.client.transcript('assistant', 'We open at nine.'));
    act(() => t.sdk.client.transcript('user', 'Thanks.'));
    await t.user.click(widget.getByRole('button', { name: 'END' }));
    act(() => t.sdk.client.emit('call-end'));
    expect(engageButton()).toBeVisible();
    const transcript = widget.getByRole('list', { name: 'Transcript' });
    expect(
      within(transcript)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['AssistantWe open at nine.', 'YouThanks.']);
    expect(widget.queryByLabelText('Type a message')).toBeNull();
    await t.user.click(widget.getByRole('button', { name: 'Copy transcript' }));
    expect(writeText).toHaveBeenCalledWith('Assistant: We open at nine.\nYou: Thanks.');
    // Still there once the "Call ended" notice has gone.
    await t.user.click(widget.getByRole('button', { name: 'Close transcript' }));
    expect(widget.queryByRole('list', { name: 'Transcript' })).toBeNull();
    expect(engageButton()).toHaveFocus();

    // A call ended by the far side is kept too, and the next call starts afresh.
    await inCall(t);
    act(() => t.sdk.client.transcript('assistant', 'Second call.'));
    act(() => t.sdk.client.emit('call-end'));
    expect(widget.getByRole('list', { name: 'Transcript' })).toHaveTextContent('Second call.');
    await inCall(t);
    expect(captions()).toHaveTextContent('Captions appear here');
  });

  it('moves through the call by keyboard: transcript, text box, Ask, mute, END', async () => {
    const t = renderWidget({ strict: true });
    await inCall(t);
    const end = widget.getByRole('button', { name: 'END' });
    expect(end).toHaveFocus();
    // The tab order is the document's (no tabindex anywhere): backwards from END.
    const focusable = [...t.shadow.querySelectorAll('button, input, textarea, [tabindex]')];
    expect(focusable.some((element) => element.hasAttribute('tabindex'))).toBe(false);
    expect(focusable.slice(-5)).toEqual([
      widget.getByRole('button', { name: 'Show transcript' }),
      widget.getByLabelText('Type a message'),
      widget.getByRole('button', { name: 'Ask' }),
      widget.getByRole('button', { name: 'Mute microphone' }),
      end,
    ]);
    // END is the only control whose name contains "end" (a page finding END by name finds one).
    expect(widget.getAllByRole('button').filter((b) => /end/i.test(b.textContent ?? ''))).toEqual([end]);
  });
});
