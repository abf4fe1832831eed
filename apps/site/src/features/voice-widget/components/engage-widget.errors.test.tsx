import { act, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFakeSdk } from '../testing/fake-voice-client';
import { widgetTestConfig as baseConfig } from '../testing/public-config';
import { connect, engageButton, renderWidget, widget } from '../testing/render-widget';

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

describe('The widget: errors and provider configuration', () => {
  it('a denied microphone shows how to fix it and stops the attempt', async () => {
    const t = renderWidget();
    await connect(t);
    act(() =>
      t.sdk.client.emit('camera-error', { error: { type: 'permissions', msg: 'Permission denied' } }),
    );
    act(() => t.sdk.client.emit('call-start-failed', { stage: 'daily-call-join', error: 'join failed' }));
    expect(widget.getByRole('alert')).toHaveTextContent(
      /Microphone access is blocked\. Allow the microphone/,
    );
    expect(t.sdk.client.stopCalls).toBeGreaterThan(0);
    expect(engageButton()).toBeVisible();
    // One way to type instead: the alert's, not a second beside ENGAGE.
    expect(widget.getAllByRole('button', { name: 'Type instead' })).toHaveLength(1);
    expect(within(widget.getByRole('alert')).getByRole('button', { name: 'Type instead' })).toBeVisible();
    await t.user.click(widget.getByRole('button', { name: 'Dismiss message' }));
    expect(widget.getAllByRole('button', { name: 'Type instead' })).toHaveLength(1);
  });

  it('a missing microphone reported as a rejected start says so', async () => {
    const { user } = renderWithStart(() =>
      Promise.reject(new DOMException('Requested device not found', 'NotFoundError')),
    );
    await user.click(engageButton());
    expect(await widget.findByRole('alert')).toHaveTextContent('No microphone was found.');
    expect(engageButton()).toBeVisible();
  });

  it('a failed start shows a short message instead of a silent reset, and can be dismissed', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start-failed', { stage: 'web-call-creation', error: 'HTTP 500' }));
    expect(widget.getByRole('alert')).toHaveTextContent('The call could not be started. Please try again.');
    expect(engageButton()).toBeVisible();
    await t.user.click(widget.getByRole('button', { name: 'Dismiss message' }));
    expect(widget.queryByRole('alert')).toBeNull();
  });

  it('a start that resolves null fails the same way', async () => {
    const { user } = renderWithStart(() => Promise.resolve(null));
    await user.click(engageButton());
    expect(await widget.findByRole('alert')).toHaveTextContent('could not be started');
  });

  it('a fatal error in the call says the call was interrupted; a reported-only error keeps the call', async () => {
    const t = renderWidget();
    await connect(t);
    act(() => t.sdk.client.emit('call-start'));
    act(() => t.sdk.client.emit('error', { type: 'audio-observer-setup-error', error: 'x' }));
    expect(widget.getByRole('button', { name: 'END' })).toBeVisible();
    act(() => t.sdk.client.emit('error', { type: 'daily-error', error: 'connection lost' }));
    expect(widget.getByRole('alert')).toHaveTextContent('The call was interrupted.');
    expect(engageButton()).toBeVisible();
  });

  it('says so when the SDK cannot load, and tries again on the next click', async () => {
    const sdk = createFakeSdk();
    let attempts = 0;
    const t = renderWidget({
      loadSdk: () => (++attempts === 1 ? Promise.reject(new Error('chunk failed')) : sdk.loadSdk()),
    });
    await t.user.click(engageButton());
    expect(await widget.findByRole('alert')).toHaveTextContent('could not be loaded');
    await t.user.click(engageButton());
    await widget.findByRole('button', { name: 'CONNECTING...' });
    await act(async () => {});
    expect(sdk.client.started).toEqual(['asst_index']);
  });

  it('says calls are not configured when the site has no provider public key', async () => {
    const t = renderWidget({
      config: { ...baseConfig, provider: { ...baseConfig.provider, publicKey: null } },
    });
    await t.user.click(engageButton());
    expect(await widget.findByRole('alert')).toHaveTextContent('Voice calls are not configured');
    expect(t.sdk.loads).toBe(0);
  });

  it('uses the configured provider base URL when the site talks to the real provider', async () => {
    const t = renderWidget({
      config: {
        ...baseConfig,
        provider: { ...baseConfig.provider, baseUrl: 'https://api.vapi.ai', embedded: false },
      },
    });
    await connect(t);
    expect(t.sdk.client.apiBaseUrl).toBe('https://api.vapi.ai');
  });
});
