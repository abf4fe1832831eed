import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeSdk } from '../testing/fake-voice-client';
import { baseConfig, engage, engageButton, renderWidget } from './voice-widget-call-harness';

/** The widget over a fake SDK whose client's start() answers with `start` (a rejection, null, ...). */
function renderWithStart(start: () => Promise<unknown>) {
  const sdk = createFakeSdk();
  return renderWidget({
    loadSdk: async () => {
      const create = await sdk.loadSdk();
      return (key, url) => {
        const client = create(key, url);
        sdk.clients.at(-1)!.startImpl = start;
        return client;
      };
    },
  });
}

describe('VoiceWidget errors and provider configuration', () => {
  it('a denied microphone shows how to fix it and stops the attempt', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('camera-error', { error: { type: 'permissions', msg: 'Permission denied' } }));
    act(() => sdk.client.emit('call-start-failed', { stage: 'daily-call-join', error: 'join failed' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      /Microphone access is blocked\. Allow the microphone/,
    );
    expect(sdk.client.stopCalls).toBeGreaterThan(0);
    expect(engageButton()).toBeVisible();
    // One way to type instead: the alert's, not a second beside ENGAGE.
    expect(screen.getAllByRole('button', { name: 'Type instead' })).toHaveLength(1);
    expect(within(screen.getByRole('alert')).getByRole('button', { name: 'Type instead' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.getAllByRole('button', { name: 'Type instead' })).toHaveLength(1);
  });

  it('a missing microphone reported as a rejected start says so', async () => {
    const { user } = renderWithStart(() =>
      Promise.reject(new DOMException('Requested device not found', 'NotFoundError')),
    );
    await user.click(engageButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('No microphone was found.');
    expect(engageButton()).toBeVisible();
  });

  it('a failed start shows a short message instead of a silent reset, and can be dismissed', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start-failed', { stage: 'web-call-creation', error: 'HTTP 500' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The call could not be started. Please try again.');
    expect(engageButton()).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a start that resolves null fails the same way', async () => {
    const { user } = renderWithStart(() => Promise.resolve(null));
    await user.click(engageButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be started');
  });

  it('a fatal error in the call says the call was interrupted; a reported-only error keeps the call', async () => {
    const { sdk, user } = renderWidget();
    await engage(user);
    act(() => sdk.client.emit('call-start'));
    act(() => sdk.client.emit('error', { type: 'audio-observer-setup-error', error: 'x' }));
    expect(screen.getByRole('button', { name: 'END' })).toBeVisible();
    act(() => sdk.client.emit('error', { type: 'daily-error', error: 'connection lost' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The call was interrupted.');
    expect(engageButton()).toBeVisible();
  });

  it('says so when the SDK cannot load, and tries again on the next click', async () => {
    const sdk = createFakeSdk();
    let attempts = 0;
    const { user } = renderWidget({
      loadSdk: () => (++attempts === 1 ? Promise.reject(new Error('chunk failed')) : sdk.loadSdk()),
    });
    await user.click(engageButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be loaded');
    await user.click(engageButton());
    await screen.findByRole('button', { name: 'CONNECTING...' });
    expect(sdk.client.started).toEqual(['asst_index']);
  });

  it('says calls are not configured when the site has no provider public key', async () => {
    const { sdk, user } = renderWidget({
      config: { ...baseConfig, provider: { ...baseConfig.provider, publicKey: null } },
    });
    await user.click(engageButton());
    expect(screen.getByRole('alert')).toHaveTextContent('Voice calls are not configured');
    expect(sdk.loads).toBe(0);
  });

  it('uses the configured provider base URL when the site talks to the real provider', async () => {
    const { sdk, user } = renderWidget({
      config: {
        ...baseConfig,
        provider: { ...baseConfig.provider, baseUrl: 'https://api.vapi.ai', embedded: false },
      },
    });
    await engage(user);
    expect(sdk.client.apiBaseUrl).toBe('https://api.vapi.ai');
  });
});
