import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CONNECT_TIMEOUT_MS } from '../lib/widget-state';
import { createFakeSdk } from '../testing/fake-voice-client';
import { engage, engageButton, renderWidget, status } from './voice-widget-call-harness';

describe('VoiceWidget', () => {
  it('gives up with a message when the assistant never answers, stopping the attempt', async () => {
    vi.useFakeTimers();
    const { sdk } = renderWidget();
    fireEvent.click(engageButton());
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(sdk.client.started).toEqual(['asst_index']);
    await act(() => vi.advanceTimersByTimeAsync(CONNECT_TIMEOUT_MS - 1));
    expect(screen.getByRole('button', { name: 'CONNECTING...' })).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('alert')).toHaveTextContent('The assistant did not answer.');
    expect(sdk.client.stopCalls).toBe(1);
    expect(engageButton()).toBeVisible();
  });

  it("is idle with a microphone and 'ENGAGE' in a labelled region, and loads no SDK before the first click", () => {
    const { sdk } = renderWidget();
    const region = screen.getByRole('region', { name: 'Voice conversation with the CTO/CIO Assistant' });
    const engage = within(region).getByRole('button', { name: 'ENGAGE' });
    // Drawn, not the 🎤 emoji (an empty box where no emoji font is installed).
    expect(engage).toHaveTextContent(/^\s*ENGAGE$/);
    expect(engage.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    expect(region).toHaveClass('fixed', 'bottom-4', 'left-4');
    expect(sdk.loads).toBe(0);
    expect(status()).toHaveTextContent('');
  });

  it("shows a disabled 'CONNECTING...' and starts the page's assistant once, however often it is clicked", async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    const button = screen.getByRole('button', { name: 'CONNECTING...' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(status()).toHaveTextContent('Connecting to the assistant…');
    await user.click(button);
    await user.click(button);
    expect(sdk.client.started).toEqual(['asst_index']);
    expect(sdk.client.publicKey).toBe('pk_test');
    expect(sdk.client.apiBaseUrl).toBe(`${window.location.origin}/provider`);
  });

  it('in a call shows the five-bar wave driven by the volume, Listening or Speaking, and a red END', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    const end = screen.getByRole('button', { name: 'END' });
    expect(end).toHaveClass('bg-red-600');
    expect(screen.getByText('Listening')).toBeVisible();
    const bars = screen.getAllByTestId('voice-wave-bar');
    expect(bars).toHaveLength(5);
    const quiet = bars.map((bar) => bar.style.transform);
    act(() => sdk.client.emit('volume-level', 0.8));
    expect(bars.map((bar) => bar.style.transform)).not.toEqual(quiet);
    act(() => sdk.client.emit('speech-start'));
    expect(screen.getByText('Speaking')).toBeVisible();
    act(() => sdk.client.emit('speech-end'));
    expect(screen.getByText('Listening')).toBeVisible();
    expect(status()).toHaveTextContent('In a call. The assistant can hear you.');
    expect(screen.queryByRole('button', { name: 'ENGAGE' })).toBeNull();
  });

  it('END stops the call and returns to ENGAGE, announcing it', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    await user.click(screen.getByRole('button', { name: 'END' }));
    expect(sdk.client.stopCalls).toBe(1);
    act(() => sdk.client.emit('call-end'));
    expect(engageButton()).toBeEnabled();
    expect(status()).toHaveTextContent('Call ended.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('returns to idle when the call ends on the far side, and a second call reuses the one SDK instance', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    act(() => sdk.client.emit('call-end'));
    expect(engageButton()).toBeVisible();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    expect(screen.getByRole('button', { name: 'END' })).toBeVisible();
    expect(sdk.loads).toBe(1);
    expect(sdk.client.started).toEqual(['asst_index', 'asst_index']);
  });

  it('mute toggles the microphone during the call', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    const mute = screen.getByRole('button', { name: 'Mute microphone' });
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await user.click(mute);
    expect(sdk.client.isMuted()).toBe(true);
    expect(mute).toHaveAttribute('aria-pressed', 'true');
    expect(status()).toHaveTextContent('Your microphone is muted.');
    await user.click(mute);
    expect(sdk.client.isMuted()).toBe(false);
    expect(mute).toHaveAttribute('aria-pressed', 'false');
  });

  it('the mute button follows the SDK when it turns the microphone back on by itself', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    await user.click(screen.getByRole('button', { name: 'Mute microphone' }));
    expect(screen.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'true');
    sdk.client.setMuted(false);
    act(() => sdk.client.emit('volume-level', 0.2));
    expect(screen.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('is operable from the keyboard and keeps focus on the control across states', async () => {
    const { sdk, user } = renderWidget();
    await user.tab();
    await user.tab();
    expect(engageButton()).toHaveFocus();
    await user.keyboard('{Enter}');
    const connecting = await screen.findByRole('button', { name: 'CONNECTING...' });
    expect(connecting).toHaveFocus();
    act(() => sdk.client.emit('call-start'));
    expect(screen.getByRole('button', { name: 'END' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Mute microphone' })).toHaveFocus();
    await user.keyboard(' ');
    expect(sdk.client.isMuted()).toBe(true);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(engageButton()).toHaveFocus();
  });

  it('does not pull focus back when the visitor has moved elsewhere', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    act(() => sdk.client.emit('call-start'));
    expect(screen.getByRole('button', { name: 'elsewhere' })).toHaveFocus();
  });

  it('tears the SDK down when the page is left: the call stops and no listener remains', async () => {
    const { sdk, user, unmount } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    unmount();
    expect(sdk.client.stopCalls).toBe(1);
    expect(sdk.client.listenerCount()).toBe(0);
  });

  it('stops the call when the browser hides the page (closing, reloading or leaving it)', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    act(() => void window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true })));
    expect(sdk.client.stopCalls).toBe(1);
  });

  it('creates no SDK instance when the page is left while the SDK is still loading', async () => {
    const sdk = createFakeSdk();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { user, unmount } = renderWidget({ loadSdk: () => gate.then(sdk.loadSdk) });
    await user.click(engageButton());
    unmount();
    await act(async () => release());
    expect(sdk.clients).toHaveLength(0);
  });
});
