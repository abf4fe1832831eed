import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CONNECT_TIMEOUT_MS } from '../lib/widget-state';
import { createFakeSdk } from '../testing/fake-voice-client';
import {
  callStarting,
  connect,
  engageButton,
  renderWidget,
  status,
  viewMounted,
  widget,
} from '../testing/render-widget';

describe('The widget', () => {
  it('gives up with a message when the assistant never answers, stopping the attempt', async () => {
    vi.useFakeTimers();
    const { sdk } = renderWidget();
    fireEvent.click(engageButton());
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(sdk.client.started).toEqual(['asst_index']);
    await act(() => vi.advanceTimersByTimeAsync(CONNECT_TIMEOUT_MS - 1));
    expect(widget.getByRole('button', { name: 'CONNECTING...' })).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(widget.getByRole('alert')).toHaveTextContent('The assistant did not answer.');
    expect(sdk.client.stopCalls).toBe(1);
    expect(engageButton()).toBeVisible();
  });

  it("is idle with a microphone and 'ENGAGE' in a labelled region, and loads no SDK before the first click", () => {
    const { sdk } = renderWidget();
    const region = widget.getByRole('region', { name: 'Voice conversation with the CTO/CIO Assistant' });
    const engage = within(region).getByRole('button', { name: 'ENGAGE' });
    // Drawn, not the 🎤 emoji (an empty box where no emoji font is installed).
    expect(engage).toHaveTextContent(/^\s*ENGAGE$/);
    expect(engage.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    // The idle markup, drawn before any framework: in the bottom-left corner.
    expect(region).toHaveClass('region', 'left');
    expect(sdk.loads).toBe(0);
    expect(status()).toHaveTextContent('');
  });

  it("shows a disabled 'CONNECTING...' and starts the page's assistant once, however often it is clicked", async () => {
    const t = renderWidget();
    await connect(t);
    const button = widget.getByRole('button', { name: 'CONNECTING...' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(status()).toHaveTextContent('Connecting to the assistant…');
    await t.user.click(button);
    await t.user.click(button);
    expect(t.sdk.client.started).toEqual(['asst_index']);
    expect(t.sdk.client.publicKey).toBe('pk_test');
    expect(t.sdk.client.apiBaseUrl).toBe(`${window.location.origin}/provider`);
  });

  it('in a call shows the five-bar wave driven by the volume, Listening or Speaking, and a red END', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    const end = widget.getByRole('button', { name: 'END' });
    expect(end).toHaveClass('bg-red-600');
    expect(widget.getByText('Listening')).toBeVisible();
    const bars = widget.getAllByTestId('voice-wave-bar');
    expect(bars).toHaveLength(5);
    const quiet = bars.map((bar) => bar.style.transform);
    act(() => t.sdk.client.emit('volume-level', 0.8));
    expect(bars.map((bar) => bar.style.transform)).not.toEqual(quiet);
    act(() => t.sdk.client.emit('speech-start'));
    expect(widget.getByText('Speaking')).toBeVisible();
    act(() => t.sdk.client.emit('speech-end'));
    expect(widget.getByText('Listening')).toBeVisible();
    expect(status()).toHaveTextContent('In a call. The assistant can hear you.');
    expect(widget.queryByRole('button', { name: 'ENGAGE' })).toBeNull();
  });

  it('END stops the call and returns to ENGAGE, announcing it', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    await t.user.click(widget.getByRole('button', { name: 'END' }));
    expect(t.sdk.client.stopCalls).toBe(1);
    act(() => t.sdk.client.emit('call-end'));
    expect(engageButton()).toBeEnabled();
    expect(status()).toHaveTextContent('Call ended.');
    expect(widget.queryByRole('alert')).toBeNull();
  });

  it('returns to idle when the call ends on the far side, and a second call reuses the one SDK instance', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    act(() => t.sdk.client.emit('call-end'));
    expect(engageButton()).toBeVisible();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    expect(widget.getByRole('button', { name: 'END' })).toBeVisible();
    expect(t.sdk.loads).toBe(1);
    expect(t.sdk.client.started).toEqual(['asst_index', 'asst_index']);
  });

  it('mute toggles the microphone during the call', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    const mute = widget.getByRole('button', { name: 'Mute microphone' });
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await t.user.click(mute);
    expect(t.sdk.client.isMuted()).toBe(true);
    expect(mute).toHaveAttribute('aria-pressed', 'true');
    expect(status()).toHaveTextContent('Your microphone is muted.');
    await t.user.click(mute);
    expect(t.sdk.client.isMuted()).toBe(false);
    expect(mute).toHaveAttribute('aria-pressed', 'false');
  });

  it('the mute button follows the SDK when it turns the microphone back on by itself', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    await t.user.click(widget.getByRole('button', { name: 'Mute microphone' }));
    expect(widget.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'true');
    t.sdk.client.setMuted(false);
    act(() => t.sdk.client.emit('volume-level', 0.2));
    expect(widget.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('is operable from the keyboard and keeps focus on the control across states', async () => {
    const t = renderWidget();
    // Tab moves into the shadow root in a browser (the e2e specs press it); here the focus is put there.
    act(() => engageButton().focus());
    expect(engageButton()).toHaveFocus();
    await t.user.keyboard('{Enter}');
    await callStarting(t);
    expect(widget.getByRole('button', { name: 'CONNECTING...' })).toHaveFocus();
    act(() => t.sdk.client.emit('call-start'));
    expect(widget.getByRole('button', { name: 'END' })).toHaveFocus();
    act(() => widget.getByRole('button', { name: 'Mute microphone' }).focus());
    await t.user.keyboard(' ');
    expect(t.sdk.client.isMuted()).toBe(true);
    act(() => widget.getByRole('button', { name: 'END' }).focus());
    await t.user.keyboard('{Enter}');
    expect(engageButton()).toHaveFocus();
  });

  it('does not pull focus back when the visitor has moved elsewhere', async () => {
    const t = renderWidget();
    await connect(t);
    await t.user.click(screen.getByRole('button', { name: 'elsewhere' }));
    act(() => t.sdk.client.emit('call-start'));
    expect(screen.getByRole('button', { name: 'elsewhere' })).toHaveFocus();
  });

  it('tears the SDK down when the page is left: the call stops and no listener remains', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    t.unmount();
    await act(async () => {}); // the element ends its call once it is out of the page for good
    expect(t.sdk.client.stopCalls).toBe(1);
    expect(t.sdk.client.listenerCount()).toBe(0);
  });

  it('stops the call when the browser hides the page (closing, reloading or leaving it)', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    act(() => void window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true })));
    expect(t.sdk.client.stopCalls).toBe(1);
  });

  it('creates no SDK instance when the page is left while the SDK is still loading', async () => {
    const sdk = createFakeSdk();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const t = renderWidget({ loadSdk: () => gate.then(sdk.loadSdk) });
    await t.user.click(engageButton());
    await viewMounted(t);
    t.unmount();
    await act(async () => release());
    expect(sdk.clients).toHaveLength(0);
  });
});
