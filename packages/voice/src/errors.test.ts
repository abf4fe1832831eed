import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { VoiceStateError, VoiceValidationError } from './index.js';
import { fakeBrowserApis, FakeStream } from './rooms/websocket-fakes.js';
import { createRoom as createWebSocketRoom } from './rooms/websocket.js';
import { setup, WEB_CALL } from './test-harness.js';

// A caller tells its own misuse (VoiceStateError: wrong moment; VoiceValidationError: bad
// argument) from a failure of the call (anything else) by class, not by parsing messages.

beforeAll(async () => {
  await import('./rooms/daily.js');
});

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

/** What `fn` threw or rejected with. */
async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('misuse of state throws VoiceStateError', () => {
  it('methods that need a call, called without one, throw it with @vapi-ai/web’s message', async () => {
    const { vapi } = setup();
    const misuses: [string, () => unknown][] = [
      ['setMuted', () => vapi.setMuted(true)],
      ['setInputDevicesAsync', () => vapi.setInputDevicesAsync({ audioDeviceId: 'mic-2' })],
      ['increaseMicLevel', () => vapi.increaseMicLevel(1.5)],
      ['startLocalAudioLevelObserver', () => vapi.startLocalAudioLevelObserver(200)],
      ['startRecording', () => vapi.startRecording()],
      ['setUserData', () => vapi.setUserData({ plan: 'pro' })],
    ];
    for (const [name, misuse] of misuses) {
      const error = await caught(misuse);
      expect(error, name).toBeInstanceOf(VoiceStateError);
      expect(error, name).toBeInstanceOf(Error); // code catching plain Errors still catches it
      expect(error, name).not.toBeInstanceOf(VoiceValidationError);
      expect(error, name).toMatchObject({
        name: 'VoiceStateError',
        message: 'Call object is not available.',
      });
    }
  });

  it('after the call has ended, the same methods throw it again', async () => {
    const { vapi } = setup();
    await vapi.start('assistant-1');
    await vapi.stop();
    expect(await caught(() => vapi.setMuted(true))).toBeInstanceOf(VoiceStateError);
    expect(await caught(() => vapi.setUserData({}))).toBeInstanceOf(VoiceStateError);
  });

  it('reconnect() while a call runs throws it; nothing is joined again', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const error = await caught(() => t.vapi.reconnect(WEB_CALL));
    expect(error).toBeInstanceOf(VoiceStateError);
    expect(error).toMatchObject({ message: expect.stringContaining('already in progress') });
    expect(t.daily.calls).toHaveLength(1);
  });

  it('changing the microphone of a WebSocket room before it is joined throws it', async () => {
    const room = createWebSocketRoom({
      audioSource: true,
      videoSource: false,
      ...fakeBrowserApis(async () => new FakeStream()),
    });
    const error = await caught(() => room.setInputDevices({ audioDeviceId: 'mic-2' }));
    expect(error).toBeInstanceOf(VoiceStateError);
    await room.destroy();
  });
});

describe('what @vapi-ai/web does not throw for, neither does this SDK', () => {
  it('send() and say() without a call are ignored with a warning', () => {
    const { vapi } = setup();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(() => vapi.send({ type: 'control', control: 'mute-assistant' })).not.toThrow();
    expect(() => vapi.say('Hello')).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe('bad arguments and failures are told apart from misuse', () => {
  it('a bad argument is a VoiceValidationError, even without a call', async () => {
    const { vapi } = setup();
    const error = await caught(() => vapi.setMuted('yes' as unknown as boolean));
    expect(error).toBeInstanceOf(VoiceValidationError);
    expect(error).not.toBeInstanceOf(VoiceStateError);
  });

  it('a reconnect whose join fails rejects with a failure, neither misuse class', async () => {
    const t = setup();
    t.daily.onCreate = (call) => (call.joinError = new Error('room deleted'));
    const error = await caught(() => t.vapi.reconnect(WEB_CALL));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(VoiceStateError);
    expect(error).not.toBeInstanceOf(VoiceValidationError);
  });

  it('a start the provider refuses is reported by events, not thrown, and is no misuse', async () => {
    const t = setup({ webCall: () => new Response('{"message":"bad key"}', { status: 401 }) });
    await expect(t.vapi.start('assistant-1')).resolves.toBeNull();
    expect(t.names()).toContain('call-start-failed');
  });
});
