import { describe, expect, it, vi } from 'vitest';
import { VoiceStateError } from './errors.js';
import { flush, setup, until, withClientTestHooks, WEB_CALL } from './test-harness.js';
import { audioElements } from './testing/dom.js';
import { createFakeTrack } from './testing/fake-daily.js';
import type { CallStartProgressEvent, VapiErrorEvent } from './types.js';

withClientTestHooks();

describe('leaks', () => {
  const endings = {
    'stop()': async (t: ReturnType<typeof setup>) => t.vapi.stop(),
    'end()': async (t: ReturnType<typeof setup>) => t.vapi.end(),
    'the server': async (t: ReturnType<typeof setup>) => {
      const daily = t.daily.last;
      daily.serverEnds();
      for (let i = 0; i < 50 && !daily.destroyed; i++) await flush();
    },
    'a fatal error': async (t: ReturnType<typeof setup>) => {
      const daily = t.daily.last;
      daily.fatalError();
      for (let i = 0; i < 50 && !daily.destroyed; i++) await flush();
    },
  };

  for (const [how, endCall] of Object.entries(endings)) {
    it(`leaves no audio element, listener or timer after a call ended by ${how}`, async () => {
      const t = setup();
      t.vapi.on('local-volume-level', () => {});
      for (let round = 0; round < 3; round++) {
        await t.vapi.start('assistant-1');
        const daily = t.daily.last;
        daily.remoteJoins();
        daily.startTrack('audio');
        await until(() => audioElements().length === 1, 'player');
        vi.useFakeTimers();
        daily.audioLevel(0.5); // speech-start: the end timer is pending
        expect(vi.getTimerCount()).toBeGreaterThan(0);
        await endCall(t);
        expect(vi.getTimerCount()).toBe(0);
        vi.useRealTimers();
        expect(audioElements()).toHaveLength(0);
        expect(daily.listenerTotal()).toBe(0);
        expect(daily.destroyed).toBe(true);
      }
      expect(t.names((n) => n === 'call-end')).toHaveLength(3);
    });
  }
});

describe('bad input changes nothing', () => {
  it('each rule throws a clear error and sends or changes nothing', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    const before = daily.log.length;
    expect(() => t.vapi.say('')).toThrow(/non-empty message/);
    expect(() => t.vapi.say('Hi', 'yes' as unknown as boolean)).toThrow(/endCallAfterSpoken/);
    expect(() => t.vapi.send('hello' as never)).toThrow(/message object/);
    expect(() => t.vapi.startRecording({ type: 's3' as never })).toThrow(/recording type/);
    await expect(t.vapi.startLocalAudioLevelObserver(50)).rejects.toThrow(/at least 100 ms/);
    await expect(t.vapi.setUserData({ big: 'x'.repeat(5000) })).rejects.toThrow(/limit is 4096/);
    await expect(t.vapi.startCustomTrack({ track: {} as MediaStreamTrack })).rejects.toThrow(
      /MediaStreamTrack/,
    );
    await expect(t.vapi.increaseMicLevel(-1)).rejects.toThrow(/positive gain/);
    expect(() => t.vapi.setMuted('yes' as unknown as boolean)).toThrow(/true or false/);
    expect(daily.log.length).toBe(before);
    expect(daily.sentMessages).toEqual([]);
  });

  it('valid input reaches the room', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    await t.vapi.startLocalAudioLevelObserver(200);
    expect(t.vapi.isLocalAudioLevelObserverRunning()).toBe(true);
    await t.vapi.setUserData({ plan: 'pro' });
    expect(daily.userData).toEqual({ plan: 'pro' });
    t.vapi.startRecording({ type: 'cloud' });
    expect(daily.recording).toBe(true);
    await expect(
      t.vapi.startCustomTrack({ track: createFakeTrack('audio'), trackName: 'bed', mode: 'music' }),
    ).resolves.toBe('bed');
    expect(t.vapi.getDailyCallObject()).toBe(daily);
  });
});

describe('reconnect()', () => {
  it('joins an existing call without creating a new one', async () => {
    const t = setup();
    await t.vapi.reconnect({ ...WEB_CALL, transport: { provider: 'daily', callToken: 'tok-2' } });
    expect(t.fetch).not.toHaveBeenCalled();
    expect(t.daily.last.joinOptions).toEqual({
      url: WEB_CALL.webCallUrl,
      token: 'tok-2',
      subscribeToTracksAutomatically: false,
    });
    expect(t.progress()).not.toContain('web-call-creation:started');
    expect(t.names()).toContain('call-start-success');
    await expect(t.vapi.reconnect(WEB_CALL)).rejects.toThrow(VoiceStateError);
  });

  it('rejects a call without URL, and a failed join with reconnect-error', async () => {
    const t = setup();
    await expect(t.vapi.reconnect({ id: 'x' } as never)).rejects.toThrow(
      'webCallUrl is required for reconnection.',
    );
    t.daily.onCreate = (call) => (call.joinError = new Error('room deleted'));
    await expect(t.vapi.reconnect(WEB_CALL)).rejects.toThrow(/Reconnecting to the call failed/);
    expect(t.payloads<VapiErrorEvent>('error').map((e) => e.type)).toEqual([
      'daily-call-join-error',
      'reconnect-error',
    ]);
  });
});

describe('reconnect() to a provider WebSocket call', () => {
  it('joins transport.websocketCallUrl when the call has no webCallUrl (as POST /call answers)', async () => {
    vi.stubGlobal(
      'WebSocket',
      vi.fn(function () {
        throw new Error('no sockets in this test');
      }),
    );
    try {
      const t = setup();
      const call = {
        id: 'call-ws',
        transport: { provider: 'vapi.websocket', websocketCallUrl: 'wss://provider.test/call/ws-1' },
      };
      // The room is chosen and created; joining fails here only because the test has no socket.
      await expect(t.vapi.reconnect(call as never)).rejects.toThrow(/Reconnecting to the call failed/);
      const created = t
        .payloads<CallStartProgressEvent>('call-start-progress')
        .find((e) => e.stage === 'daily-call-object-creation' && e.status === 'started');
      expect(created?.metadata).toMatchObject({ room: 'websocket' });
      expect(t.progress()).toContain('daily-call-object-creation:completed');
      expect(t.daily.calls).toHaveLength(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('increaseMicLevel()', () => {
  it('routes the microphone through a gain node and releases it when the call ends', async () => {
    const stopped: string[] = [];
    const closed = vi.fn(async () => undefined);
    const boosted = createFakeTrack('audio');
    const gain = { gain: { value: 1 }, connect: (next: unknown) => next };
    class FakeAudioContext {
      createGain = () => gain;
      createMediaStreamDestination = () => ({ stream: { getAudioTracks: () => [boosted] } });
      createMediaStreamSource = () => ({ connect: (next: unknown) => next });
      close = closed;
    }
    vi.stubGlobal('AudioContext', FakeAudioContext);
    const mic = { getTracks: () => [{ stop: () => stopped.push('mic') }] };
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: vi.fn(async () => mic) },
    });
    const t = setup();
    await t.vapi.start('assistant-1');
    await t.vapi.increaseMicLevel(1.5);
    expect(gain.gain.value).toBe(1.5);
    expect(t.daily.last.log.find((c) => c.method === 'setInputDevicesAsync')?.args[0]).toEqual({
      audioSource: boosted,
    });
    await t.vapi.stop();
    expect(stopped).toEqual(['mic']);
    expect(closed).toHaveBeenCalledTimes(1);
    vi.unstubAllGlobals();
  });
});
