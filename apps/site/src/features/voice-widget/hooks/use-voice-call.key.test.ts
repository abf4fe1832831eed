import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CreateVoiceClient, LoadVoiceSdk, VoiceClient } from '../lib/voice-client';
import { useVoiceCall } from './use-voice-call';

// The members key arrives after the page (it needs the session's request to /config.json): an
// ENGAGE clicked before it must wait for it, not fail with "no public key".

function fakeSdk() {
  const created: string[] = [];
  const started: string[] = [];
  const client: VoiceClient = {
    start: async (assistantId) => void started.push(assistantId),
    stop: async () => {},
    setMuted: () => {},
    isMuted: () => false,
    send: () => {},
    startLocalAudioLevelObserver: async () => {},
    on: () => client,
    removeAllListeners: () => client,
  };
  const create: CreateVoiceClient = (publicKey) => {
    created.push(publicKey);
    return client;
  };
  const loadSdk = vi.fn<LoadVoiceSdk>(async () => create);
  return { created, started, loadSdk };
}

function renderCall(publicKey: string | null | undefined) {
  const sdk = fakeSdk();
  const view = renderHook(
    ({ publicKey }: { publicKey: string | null | undefined }) =>
      useVoiceCall({
        assistantId: 'asst_onboarding',
        publicKey,
        apiBaseUrl: 'http://x/provider',
        loadSdk: sdk.loadSdk,
      }),
    { initialProps: { publicKey } },
  );
  return { ...sdk, ...view };
}

/** Lets the start's promises (SDK load, start) settle. */
const settle = () => act(async () => {});

describe('useVoiceCall with a public key still on its way', () => {
  it('engaged before the key arrives: shows CONNECTING... and starts with the key once it does', async () => {
    const t = renderCall(undefined);
    act(() => t.result.current.engage());
    await settle();
    expect(t.result.current.state.status).toBe('connecting');
    expect(t.loadSdk).not.toHaveBeenCalled();

    t.rerender({ publicKey: 'members-key' });
    await settle();
    expect(t.created).toEqual(['members-key']);
    expect(t.started).toEqual(['asst_onboarding']);
    expect(t.result.current.state.status).toBe('connecting');
  });

  it('the key turns out to be missing: the waiting attempt fails as not configured', async () => {
    const t = renderCall(undefined);
    act(() => t.result.current.engage());
    t.rerender({ publicKey: null });
    await settle();
    expect(t.result.current.state).toMatchObject({
      status: 'idle',
      notice: { kind: 'failed', reason: 'not-configured' },
    });
    expect(t.loadSdk).not.toHaveBeenCalled();
  });

  it('cancelled while waiting: the key arriving later starts nothing', async () => {
    const t = renderCall(undefined);
    act(() => t.result.current.engage());
    act(() => t.result.current.cancel());
    t.rerender({ publicKey: 'members-key' });
    await settle();
    expect(t.result.current.state.status).toBe('idle');
    expect(t.loadSdk).not.toHaveBeenCalled();
  });

  it('with the key already there, engage starts at once (unchanged)', async () => {
    const t = renderCall('everyone-key');
    act(() => t.result.current.engage());
    await settle();
    expect(t.created).toEqual(['everyone-key']);
    expect(t.started).toEqual(['asst_onboarding']);
  });
});
