import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CALL_ENDED_NOTICE_MS, CONNECT_TIMEOUT_MS } from '../lib/widget-state';
import { createFakeSdk } from '../testing/fake-voice-client';
import {
  connect,
  engageButton,
  inCall,
  renderWidget,
  status,
  viewMounted,
  widget,
} from '../testing/render-widget';

// Cancelling CONNECTING..., the visible "Call ended" and the text chat, over the fake SDK client.

describe('The widget: cancelling CONNECTING...', () => {
  it('Escape cancels at once: the start is stopped, ENGAGE has the focus, and no timeout follows', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const t = renderWidget({ strict: true });
    await connect(t);
    expect(widget.getByRole('button', { name: 'CONNECTING...' })).toHaveFocus();
    await t.user.keyboard('{Escape}');
    expect(t.sdk.client.stopCalls).toBe(1);
    expect(engageButton()).toHaveFocus();
    expect(status()).toHaveTextContent('Call cancelled.');
    // The abandoned start reports its cancellation late: no message for it.
    act(() => t.sdk.client.emit('call-start-failed', { stage: 'daily-call-join', error: 'cancelled' }));
    await act(() => vi.advanceTimersByTimeAsync(CONNECT_TIMEOUT_MS + 1));
    expect(widget.queryByRole('alert')).toBeNull();
    expect(engageButton()).toBeVisible();
  });

  it('Escape cancels even when the focus is elsewhere on the page', async () => {
    const t = renderWidget({ strict: true });
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
    const t = renderWidget({ strict: true, loadSdk: () => gate.then(sdk.loadSdk) });
    await t.user.click(engageButton());
    await viewMounted(t);
    await t.user.click(widget.getByRole('button', { name: 'Cancel' }));
    await act(async () => release());
    expect(sdk.client.started).toEqual([]);
    expect(engageButton()).toBeVisible();
    expect(widget.queryByRole('alert')).toBeNull();
  });

  it('the visible Cancel does the same, and the next ENGAGE is not failed by the cancelled start', async () => {
    const starts: ((call: unknown) => void)[] = [];
    const t = renderWidget({
      strict: true,
      configure: (client) => {
        client.startImpl = () => new Promise((resolve) => starts.push(resolve));
      },
    });
    await connect(t);
    await t.user.click(widget.getByRole('button', { name: 'Cancel' }));
    expect(t.sdk.client.stopCalls).toBe(1);
    expect(engageButton()).toHaveFocus();
    await connect(t);
    // The cancelled start gives up (null) only now, while the next one is connecting.
    await act(async () => starts[0]!(null));
    expect(widget.getByRole('button', { name: 'CONNECTING...' })).toBeVisible();
    expect(widget.queryByRole('alert')).toBeNull();
    act(() => t.sdk.client.emit('call-start'));
    expect(widget.getByRole('button', { name: 'END' })).toBeVisible();
    expect(t.sdk.client.started).toHaveLength(2);
  });
});

describe('The widget: call ended', () => {
  it('shows "Call ended." for a few seconds when the assistant or the network ends the call', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const t = renderWidget({ strict: true });
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
    const t = renderWidget({ strict: true });
    await inCall(t);
    await t.user.click(widget.getByRole('button', { name: 'END' }));
    act(() => t.sdk.client.emit('call-end'));
    expect(status()).toHaveTextContent('Call ended.');
    expect(status()).toHaveClass('sr-only');
  });
});

describe('The widget: text chat', () => {
  it('"Type instead" opens the text chat with the same assistant; closing it returns to ENGAGE', async () => {
    const t = renderWidget({ strict: true });
    await t.user.click(widget.getByRole('button', { name: 'Type instead' }));
    const chat = await widget.findByRole('region', { name: 'Chat with the CTO/CIO Assistant' });
    expect(within(chat).getByLabelText('Type a message')).toHaveFocus();
    expect(widget.queryByRole('button', { name: 'ENGAGE' })).toBeNull();
    expect(t.sdk.loads).toBe(0);
    await t.user.keyboard('{Escape}');
    expect(widget.queryByRole('region', { name: /Chat with/ })).toBeNull();
    expect(widget.getByRole('button', { name: 'Type instead' })).toHaveFocus();
    expect(engageButton()).toBeVisible();
  });

  it('a denied microphone offers typing instead, and the chat says why', async () => {
    const t = renderWidget({ strict: true });
    await connect(t);
    act(() =>
      t.sdk.client.emit('camera-error', { error: { type: 'permissions', msg: 'Permission denied' } }),
    );
    const alert = widget.getByRole('alert');
    expect(alert).toHaveTextContent('Microphone access is blocked.');
    await t.user.click(within(alert).getByRole('button', { name: 'Type instead' }));
    const chat = await widget.findByRole('region', { name: 'Chat with the CTO/CIO Assistant' });
    expect(chat).toHaveTextContent('Microphone access is blocked — you can type instead.');
  });
});
