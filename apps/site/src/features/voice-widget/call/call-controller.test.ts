import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALL_ENDED_NOTICE_MS, CONNECT_TIMEOUT_MS } from '../lib/widget-state';
import { createFakeSdk } from '../testing/fake-voice-client';
import { createCallController, MAX_TYPED_CHARS, type CallSettings } from './call-controller';

// The call without React: presses and SDK events in, the widget's state out.

function controller(publicKey: CallSettings['publicKey']) {
  const sdk = createFakeSdk();
  const loadSdk = vi.fn(sdk.loadSdk);
  const call = createCallController({
    assistantId: 'asst_onboarding',
    publicKey,
    apiBaseUrl: 'http://x/provider',
    loadSdk,
  });
  call.attach();
  const seen: string[] = [];
  call.subscribe(() => seen.push(call.getSnapshot().status));
  return { sdk, loadSdk, call, seen };
}

/** Lets the start's promises (SDK load, start) settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);

afterEach(() => {
  vi.useRealTimers();
});

describe('the call controller', () => {
  it('engage → connecting → in a call → hang up, telling each change to its subscribers once', async () => {
    vi.useFakeTimers();
    const t = controller('pk_test');
    t.call.engage();
    t.call.engage(); // a second press while connecting does nothing
    await settle();
    expect(t.sdk.client.started).toEqual(['asst_onboarding']);
    t.sdk.client.emit('call-start');
    expect(t.call.getSnapshot()).toMatchObject({ status: 'in-call', muted: false });
    t.call.hangUp();
    expect(t.call.getSnapshot()).toEqual({ status: 'idle', notice: { kind: 'ended', by: 'you' } });
    expect(t.seen).toEqual(['connecting', 'in-call', 'idle']);
    expect(t.sdk.client.stopCalls).toBe(1);
  });

  it('gives up on CONNECTING... after its timeout, and stops the attempt', async () => {
    vi.useFakeTimers();
    const t = controller('pk_test');
    t.call.engage();
    await vi.advanceTimersByTimeAsync(CONNECT_TIMEOUT_MS - 1);
    expect(t.call.getSnapshot().status).toBe('connecting');
    await vi.advanceTimersByTimeAsync(1);
    expect(t.call.getSnapshot()).toEqual({ status: 'idle', notice: { kind: 'failed', reason: 'timeout' } });
    expect(t.sdk.client.stopCalls).toBe(1);
  });

  it('"Call ended" by the assistant goes away by itself; a late call-end after a hang-up is not reported', async () => {
    vi.useFakeTimers();
    const t = controller('pk_test');
    t.call.engage();
    await settle();
    t.sdk.client.emit('call-start');
    t.sdk.client.emit('call-end');
    expect(t.call.getSnapshot()).toEqual({ status: 'idle', notice: { kind: 'ended', by: 'assistant' } });
    await vi.advanceTimersByTimeAsync(CALL_ENDED_NOTICE_MS);
    expect(t.call.getSnapshot()).toEqual({ status: 'idle', notice: null });
  });

  it('sends typed text only in a call, trimmed and cut to the longest question', async () => {
    vi.useFakeTimers();
    const t = controller('pk_test');
    expect(t.call.sendText('hello')).toBeNull();
    t.call.engage();
    await settle();
    t.sdk.client.emit('call-start');
    expect(t.call.sendText('   ')).toBeNull();
    expect(t.call.sendText(` ${'a'.repeat(MAX_TYPED_CHARS + 5)} `)).toHaveLength(MAX_TYPED_CHARS);
    expect(t.sdk.client.sent).toHaveLength(1);
  });

  it('a microphone refused at the start says how to fix it', async () => {
    vi.useFakeTimers();
    const t = controller('pk_test');
    t.call.engage();
    await settle();
    t.sdk.client.emit('call-start-failed', { error: { name: 'NotAllowedError' } });
    expect(t.call.getSnapshot()).toEqual({
      status: 'idle',
      notice: { kind: 'microphone', problem: 'denied' },
    });
  });

  it('detached (the widget left the page): the call stops and the SDK client is dropped', async () => {
    vi.useFakeTimers();
    const t = controller('pk_test');
    t.call.engage();
    await settle();
    t.sdk.client.emit('call-start');
    t.call.detach();
    expect(t.sdk.client.stopCalls).toBe(1);
    expect(t.sdk.client.listenerCount()).toBe(0);
  });

  it('the page hidden for good ends the call', async () => {
    vi.useFakeTimers();
    const t = controller('pk_test');
    t.call.engage();
    await settle();
    t.sdk.client.emit('call-start');
    window.dispatchEvent(new Event('pagehide'));
    expect(t.sdk.client.stopCalls).toBe(1);
    t.call.detach();
  });
});

// The members key arrives after the page (it needs the session's request to /config.json): an
// ENGAGE pressed before it must wait for it, not fail with "no public key".
describe('the call controller with a public key still on its way', () => {
  it('engaged before the key arrives: shows CONNECTING... and starts with the key once it does', async () => {
    vi.useFakeTimers();
    const t = controller(undefined);
    t.call.engage();
    await settle();
    expect(t.call.getSnapshot().status).toBe('connecting');
    expect(t.loadSdk).not.toHaveBeenCalled();
    t.call.configure({ publicKey: 'members-key' });
    await settle();
    expect(t.sdk.client.publicKey).toBe('members-key');
    expect(t.sdk.client.started).toEqual(['asst_onboarding']);
    expect(t.call.getSnapshot().status).toBe('connecting');
  });

  it('the key turns out to be missing: the waiting attempt fails as not configured', async () => {
    vi.useFakeTimers();
    const t = controller(undefined);
    t.call.engage();
    t.call.configure({ publicKey: null });
    await settle();
    expect(t.call.getSnapshot()).toEqual({
      status: 'idle',
      notice: { kind: 'failed', reason: 'not-configured' },
    });
    expect(t.loadSdk).not.toHaveBeenCalled();
  });

  it('cancelled while waiting: the key arriving later starts nothing', async () => {
    vi.useFakeTimers();
    const t = controller(undefined);
    t.call.engage();
    t.call.cancel();
    t.call.configure({ publicKey: 'members-key' });
    await settle();
    expect(t.call.getSnapshot().status).toBe('idle');
    expect(t.loadSdk).not.toHaveBeenCalled();
  });
});
