import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { VoiceStateError } from './errors.js';
import { createGate, flush, setup, until, WEB_CALL } from './test-harness.js';
import { audioElements, blockAutoplay } from './testing/dom.js';
import { createFakeTrack } from './testing/fake-daily.js';
import type { CallStartFailedEvent, CallStartProgressEvent, VapiErrorEvent } from './types.js';

// start() loads the room adapter on first use (rooms/choose.ts). Loaded here, so a test that runs
// first under a fake clock is not racing a real module load (it failed alone or shuffled).
beforeAll(async () => {
  await import('./rooms/daily.js');
  await import('./rooms/websocket.js');
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const STAGES = [
  'initialization',
  'web-call-creation',
  'daily-call-object-creation',
  'mobile-permissions',
  'daily-call-join',
  'video-recording-setup',
  'audio-observer-setup',
  'audio-processing-setup',
];

describe('start(): the happy path', () => {
  it('runs the eight stages in order, joins without auto-subscription and resolves the call', async () => {
    const t = setup();
    const call = await t.vapi.start('assistant-1', { firstMessage: 'Hi' });

    expect(call).toMatchObject({ id: 'call-123' });
    expect(t.requests).toHaveLength(1);
    expect(t.requests[0]).toMatchObject({
      url: 'http://api.test/call/web',
      body: { assistantId: 'assistant-1', assistantOverrides: { firstMessage: 'Hi' } },
    });
    expect(t.requests[0]!.headers.Authorization).toBe('Bearer pk_test');
    expect(t.progress()).toEqual(STAGES.flatMap((s) => [`${s}:started`, `${s}:completed`]));
    for (const p of t.payloads<CallStartProgressEvent>('call-start-progress')) {
      expect(Date.parse(p.timestamp)).not.toBeNaN();
      if (p.status === 'completed') expect(p.duration).toBeGreaterThanOrEqual(0);
    }
    expect(t.names((n) => n !== 'call-start-progress')).toEqual(['call-start-success']);
    expect(t.payloads('call-start-success')[0]).toMatchObject({ callId: 'call-123' });

    const daily = t.daily.last;
    expect(daily.factoryOptions).toMatchObject({ audioSource: true, videoSource: false });
    expect(daily.joinOptions).toEqual({ url: WEB_CALL.webCallUrl, subscribeToTracksAutomatically: false });
    expect(daily.remoteObserverInterval).toBe(100);
    expect(daily.audioProcessor).toBe('noise-cancellation');
  });

  it('plays the assistant: subscribes audio, plays the Vapi Speaker through a hidden audio element, says playable', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    const speaker = daily.remoteJoins('Vapi Speaker');
    expect(daily.subscriptions.get(speaker.session_id)).toEqual({ audio: true, video: false });

    daily.startTrack('audio');
    await until(() => t.names().includes('audio'), 'audio event');
    const [player] = audioElements();
    expect(player).toBeDefined();
    expect(t.vapi.getAudioPlayer()).toBe(player);
    expect(player!.dataset.participantId).toBe(speaker.session_id);
    expect(daily.sentMessages).toEqual(['playable']);

    daily.appMessage('listening');
    daily.appMessage({ type: 'transcript', role: 'assistant', transcript: 'Hello' });
    expect(t.names((n) => ['call-start', 'message'].includes(n))).toEqual(['call-start', 'message']);
    expect(t.payloads('message')[0]).toEqual({ type: 'transcript', role: 'assistant', transcript: 'Hello' });
  });

  it('ignores tracks of participants other than the Vapi Speaker, and local tracks', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    const other = daily.remoteJoins('Someone Else');
    daily.startTrack('audio', other);
    daily.startTrack('audio', daily.local);
    await flush();
    expect(audioElements()).toHaveLength(0);
    expect(daily.sentMessages).toEqual([]);
  });

  it('turns a string into an id and an object into an inline definition for assistant, squad and workflow', async () => {
    const t = setup();
    await t.vapi.start(
      undefined,
      undefined,
      'squad-1',
      { nodes: [] },
      { variableValues: {} },
      {
        roomDeleteOnUserLeaveEnabled: false,
      },
    );
    expect(t.requests[0]!.body).toEqual({
      squadId: 'squad-1',
      workflow: { nodes: [] },
      workflowOverrides: { variableValues: {} },
      roomDeleteOnUserLeaveEnabled: false,
    });
  });

  it('waits 1000 ms on mobile before joining', async () => {
    vi.useFakeTimers();
    const t = setup({ mobile: true });
    const started = t.vapi.start('assistant-1');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.progress()).toContain('mobile-permissions:started');
    expect(t.daily.last.joinOptions).toBeUndefined();
    await vi.advanceTimersByTimeAsync(999);
    expect(t.daily.last.joinOptions).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await started;
    expect(t.daily.last.joinOptions).toBeDefined();
    const mobile = t
      .payloads<CallStartProgressEvent>('call-start-progress')
      .find((p) => p.stage === 'mobile-permissions' && p.status === 'completed');
    expect(mobile?.metadata).toEqual({ action: 'permissions-wait' });
  });
});

describe('start(): validation and guards', () => {
  it('rejects without assistant, squad or workflow, reporting a validation-error and calling nothing', async () => {
    const t = setup();
    await expect(t.vapi.start()).rejects.toThrow('Assistant or Squad or Workflow must be provided.');
    expect(t.payloads<VapiErrorEvent>('error')).toEqual([
      expect.objectContaining({
        type: 'validation-error',
        error: expect.objectContaining({ message: 'Assistant or Squad or Workflow must be provided.' }),
      }),
    ]);
    expect(t.fetch).not.toHaveBeenCalled();
    expect(t.daily.calls).toHaveLength(0);
  });

  it('refuses a second start while one runs (already-started) and returns null', async () => {
    const gate = createGate();
    const t = setup({ httpGate: gate });
    const first = t.vapi.start('assistant-1');
    const second = await t.vapi.start('assistant-2');
    expect(second).toBeNull();
    expect(t.payloads<CallStartProgressEvent>('call-start-progress')).toContainEqual(
      expect.objectContaining({
        stage: 'validation',
        status: 'failed',
        metadata: { reason: 'already-started' },
      }),
    );
    gate.open();
    await expect(first).resolves.toMatchObject({ id: 'call-123' });
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(await t.vapi.start('assistant-3')).toBeNull();
  });

  it('allows a new call once the previous one ended', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    await t.vapi.stop();
    await expect(t.vapi.start('assistant-1')).resolves.toMatchObject({ id: 'call-123' });
    expect(t.daily.calls).toHaveLength(2);
  });
});

describe('start(): failures', () => {
  it('a refused web call fails the web-call-creation stage with a readable message and resolves null', async () => {
    const t = setup({
      webCall: () =>
        new Response(
          JSON.stringify({ message: ['assistantId must be a UUID'], error: 'Bad Request', statusCode: 400 }),
          {
            status: 400,
            statusText: 'Bad Request',
            headers: { 'content-type': 'application/json' },
          },
        ),
    });
    await expect(t.vapi.start('nope')).resolves.toBeNull();
    expect(t.progress().slice(-1)).toEqual(['web-call-creation:failed']);
    const [failed] = t.payloads<CallStartFailedEvent>('call-start-failed');
    expect(failed).toMatchObject({ stage: 'web-call-creation', errorStatus: 400 });
    expect(failed!.error).toBe('400 Bad Request: assistantId must be a UUID');
    expect(t.payloads<VapiErrorEvent>('error')[0]).toMatchObject({
      type: 'start-method-error',
      stage: 'web-call-creation',
    });
    expect(t.daily.calls).toHaveLength(0);
  });

  it('a WebSocket call in an audio format the room does not speak fails clearly, opening no socket', async () => {
    // The WebSocket room sends and plays 16 kHz 16-bit PCM; a call created with another audioFormat
    // (µ-law or 8 kHz, which the provider and the emulator accept) would otherwise be noise both ways.
    const sockets = vi.fn();
    vi.stubGlobal('WebSocket', sockets);
    try {
      const t = setup({
        webCall: {
          ...WEB_CALL,
          webCallUrl: 'wss://provider.test/rooms/call-123',
          transport: { audioFormat: { format: 'mulaw', container: 'raw', sampleRate: 8000 } },
        },
      });
      await expect(t.vapi.start('assistant-1')).resolves.toBeNull();
      const [failed] = t.payloads<CallStartFailedEvent>('call-start-failed');
      expect(failed).toMatchObject({ stage: 'daily-call-object-creation' });
      expect(failed!.error).toContain('mulaw at 8000 Hz');
      expect(sockets).not.toHaveBeenCalled();
      expect(t.daily.calls).toHaveLength(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a WebSocket call in 16 kHz 16-bit PCM is not refused for its format', async () => {
    const sockets = vi.fn(function (this: object) {
      throw new Error('socket opened');
    });
    vi.stubGlobal('WebSocket', sockets);
    try {
      const t = setup({
        webCall: {
          ...WEB_CALL,
          webCallUrl: 'wss://provider.test/rooms/call-123',
          transport: { audioFormat: { format: 'pcm_s16le', container: 'raw', sampleRate: 16000 } },
        },
      });
      await t.vapi.start('assistant-1');
      const [failed] = t.payloads<CallStartFailedEvent>('call-start-failed');
      expect(failed?.stage).not.toBe('daily-call-object-creation');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a failed join reports daily-call-join-error, destroys the call object and resolves null', async () => {
    const t = setup();
    t.daily.onCreate = (call) => {
      call.joinError = new Error('room expired');
      t.daily.onCreate = undefined;
    };
    await expect(t.vapi.start('assistant-1')).resolves.toBeNull();
    expect(t.progress().slice(-2)).toEqual(['daily-call-join:started', 'daily-call-join:failed']);
    expect(t.payloads<VapiErrorEvent>('error').map((e) => e.type)).toEqual([
      'daily-call-join-error',
      'start-method-error',
    ]);
    expect(t.payloads<CallStartFailedEvent>('call-start-failed')[0]).toMatchObject({
      stage: 'daily-call-join',
      error: 'room expired',
    });
    expect(t.daily.last.destroyed).toBe(true);
    expect(t.daily.last.listenerTotal()).toBe(0);
    expect(t.names()).not.toContain('call-end');
    await expect(t.vapi.start('assistant-1')).resolves.not.toBeNull();
  });

  it('a retry from a call-start-failed listener is not refused as already started', async () => {
    const t = setup();
    t.daily.onCreate = (call) => {
      call.joinError = new Error('network blip');
      t.daily.onCreate = undefined;
    };
    const retried = new Promise<unknown>((resolve) => {
      t.vapi.once('call-start-failed', () => resolve(t.vapi.start('assistant-1')));
    });
    await expect(t.vapi.start('assistant-1')).resolves.toBeNull();
    await expect(retried).resolves.toMatchObject({ id: 'call-123' });
    expect(t.daily.calls).toHaveLength(2);
  });

  it('a call object that cannot be created reports daily-call-object-creation-error', async () => {
    const t = setup();
    t.daily.createError = new Error('unsupported browser');
    await expect(t.vapi.start('assistant-1')).resolves.toBeNull();
    expect(t.payloads<VapiErrorEvent>('error').map((e) => e.type)).toEqual([
      'daily-call-object-creation-error',
      'start-method-error',
    ]);
  });

  it('an audio-observer failure is reported but the call goes on', async () => {
    const t = setup();
    t.daily.onCreate = (call) => (call.observerError = new Error('observer broke'));
    await expect(t.vapi.start('assistant-1')).resolves.not.toBeNull();
    expect(t.progress()).toContain('audio-observer-setup:failed');
    expect(t.payloads<VapiErrorEvent>('error').map((e) => e.type)).toEqual(['audio-observer-setup-error']);
    expect(t.names()).toContain('call-start-success');
  });
});

describe('stop() while connecting', () => {
  it('during web-call creation: aborts the request, never creates a room, resolves', async () => {
    const gate = createGate();
    const t = setup({ httpGate: gate });
    const started = t.vapi.start('assistant-1');
    await until(() => t.requests.length === 1, 'the request');
    await t.vapi.stop();
    await expect(started).resolves.toBeNull();
    expect(t.requests[0]!.signal?.aborted).toBe(true);
    expect(t.daily.calls).toHaveLength(0);
    const [failed] = t.payloads<CallStartFailedEvent>('call-start-failed');
    expect(failed).toMatchObject({
      stage: 'web-call-creation',
      context: expect.objectContaining({ cancelled: true }),
    });
    expect(t.names()).not.toContain('error');
    expect(t.names()).not.toContain('call-end');
  });

  it('during the mobile wait: never joins', async () => {
    vi.useFakeTimers();
    const t = setup({ mobile: true });
    const started = t.vapi.start('assistant-1');
    await vi.advanceTimersByTimeAsync(0);
    expect(t.progress()).toContain('mobile-permissions:started');
    const stopped = t.vapi.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
    await expect(started).resolves.toBeNull();
    expect(t.daily.last.joinOptions).toBeUndefined();
    expect(t.daily.last.destroyed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('during join: leaves and destroys the room once the join settles, resolves null', async () => {
    const t = setup();
    const gate = createGate();
    t.daily.onCreate = (call) => (call.joinGate = gate);
    const started = t.vapi.start('assistant-1');
    await until(() => t.daily.calls[0]?.meetingState === 'joining-meeting', 'joining');
    const stopped = t.vapi.stop();
    await expect(started).resolves.toBeNull();
    gate.open();
    await stopped;
    const daily = t.daily.last;
    expect(daily.destroyed).toBe(true);
    expect(daily.meetingState).not.toBe('joined-meeting');
    expect(daily.listenerTotal()).toBe(0);
    expect(t.payloads<CallStartFailedEvent>('call-start-failed')[0]).toMatchObject({
      stage: 'daily-call-join',
    });
    expect(t.names()).not.toContain('call-start-success');
  });

  it('during audio processing: leaves the joined room and ends with call-end', async () => {
    const t = setup();
    let release!: () => void;
    t.daily.onCreate = (call) => {
      const original = call.updateInputSettings.bind(call);
      call.updateInputSettings = (settings) =>
        new Promise((resolve) => (release = () => resolve(original(settings))));
    };
    const started = t.vapi.start('assistant-1');
    await until(() => t.progress().includes('audio-processing-setup:started'), 'audio processing');
    await t.vapi.stop();
    await expect(started).resolves.toBeNull();
    release();
    expect(t.daily.last.log.map((c) => c.method)).toContain('leave');
    expect(t.daily.last.destroyed).toBe(true);
    expect(t.names().slice(-3)).toEqual(['call-start-failed', 'call-end', 'message']);
  });
});

describe('stop() at each stage of the start', () => {
  for (const [index, stage] of STAGES.entries()) {
    it(`stop() when ${stage} starts: start() resolves null, nothing is left, call-end only if joined`, async () => {
      const t = setup({ webCall: { ...WEB_CALL, artifactPlan: { videoRecordingEnabled: true } } });
      let stopped: Promise<void> | undefined;
      const listener = (p: CallStartProgressEvent) => {
        if (p.stage !== stage || p.status !== 'started') return;
        t.vapi.off('call-start-progress', listener);
        stopped = t.vapi.stop();
      };
      t.vapi.on('call-start-progress', listener);
      await expect(t.vapi.start('assistant-1')).resolves.toBeNull();
      await stopped;
      await until(() => t.daily.calls.every((c) => c.destroyed), 'rooms released');

      expect(t.progress().slice(-1)).toEqual([`${stage}:failed`]);
      expect(t.payloads<CallStartFailedEvent>('call-start-failed')).toEqual([
        expect.objectContaining({ stage, context: expect.objectContaining({ cancelled: true }) }),
      ]);
      expect(t.names()).not.toContain('call-start-success');
      expect(t.names()).not.toContain('error');
      const joined = index > STAGES.indexOf('daily-call-join');
      expect(t.names().filter((n) => n === 'call-end')).toHaveLength(joined ? 1 : 0);
      for (const call of t.daily.calls) expect(call.listenerTotal()).toBe(0);
      expect(audioElements()).toHaveLength(0);
      // The instance is usable again.
      await expect(t.vapi.start('assistant-2')).resolves.toMatchObject({ id: 'call-123' });
    });
  }
});

describe('during a call', () => {
  it('the server ending the call emits call-end then one ended status message, and cleans up', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    daily.remoteJoins();
    daily.startTrack('audio');
    await until(() => audioElements().length === 1, 'player');
    daily.serverEnds();
    await until(() => t.names().includes('call-end'), 'call-end');
    const tail = t.events.slice(t.names().indexOf('call-end'));
    expect(tail.map((e) => e.name)).toEqual(['call-end', 'message']);
    expect(tail[1]!.args[0]).toEqual({
      type: 'status-update',
      status: 'ended',
      endedReason: 'customer-ended-call',
    });
    await until(() => daily.destroyed, 'destroy');
    expect(audioElements()).toHaveLength(0);
    expect(daily.listenerTotal()).toBe(0);
    expect(t.vapi.getAudioPlayer()).toBeNull();
  });

  it('a start() from a call-end listener waits for the old room and succeeds', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const next = new Promise<unknown>((resolve) =>
      t.vapi.once('call-end', () => resolve(t.vapi.start('assistant-1'))),
    );
    t.daily.last.serverEnds();
    await expect(next).resolves.toMatchObject({ id: 'call-123' });
    expect(t.daily.calls.map((c) => c.destroyed)).toEqual([true, false]);
  });

  it('does not repeat the ended status when the assistant already sent it', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    t.daily.last.appMessage({ type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' });
    t.daily.last.serverEnds();
    await until(() => t.names().includes('call-end'), 'call-end');
    const ended = t
      .payloads<{ type: string; status?: string }>('message')
      .filter((m) => m.status === 'ended');
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ endedReason: 'assistant-ended-call' });
  });

  it('a fatal room error reports daily-error and ends the call', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    t.daily.last.fatalError('meeting ended');
    await until(() => t.daily.last.destroyed, 'destroy');
    expect(t.payloads<VapiErrorEvent>('error')[0]).toMatchObject({ type: 'daily-error' });
    expect(t.names().slice(-2)).toEqual(['call-end', 'message']);
  });

  it('autoplay blocked: reports audio-start-failed, leaves no element, does not say playable', async () => {
    const t = setup();
    blockAutoplay(true);
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    daily.remoteJoins();
    daily.startTrack('audio');
    await until(() => t.names().includes('error'), 'error');
    expect(t.payloads<VapiErrorEvent>('error')[0]).toMatchObject({
      type: 'audio-start-failed',
      error: expect.objectContaining({ name: 'NotAllowedError' }),
    });
    expect(audioElements()).toHaveLength(0);
    expect(daily.sentMessages).toEqual([]);
  });

  it('mute and unmute reach the room and isMuted() follows at once', async () => {
    const t = setup();
    expect(() => t.vapi.setMuted(true)).toThrow(new VoiceStateError('Call object is not available.'));
    expect(t.vapi.isMuted()).toBe(false);
    await t.vapi.start('assistant-1');
    t.vapi.setMuted(true);
    expect(t.vapi.isMuted()).toBe(true);
    t.vapi.setMuted(false);
    expect(t.vapi.isMuted()).toBe(false);
    expect(t.daily.last.log.filter((c) => c.method === 'setLocalAudio').map((c) => c.args[0])).toEqual([
      false,
      true,
    ]);
  });

  it('muting while connecting is remembered and applied once joined', async () => {
    const gate = createGate();
    const t = setup({ httpGate: gate });
    const started = t.vapi.start('assistant-1');
    t.vapi.setMuted(true);
    expect(t.vapi.isMuted()).toBe(true);
    gate.open();
    await started;
    expect(t.daily.last.log.filter((c) => c.method === 'setLocalAudio').map((c) => c.args[0])).toEqual([
      false,
    ]);
    const join = t.daily.last.log.findIndex((c) => c.method === 'join');
    const mute = t.daily.last.log.findIndex((c) => c.method === 'setLocalAudio');
    expect(mute).toBeGreaterThan(join);
    expect(t.vapi.isMuted()).toBe(true);
  });

  it('send() and say() send JSON app messages; end() sends end-call then leaves', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    t.vapi.send({ type: 'add-message', message: { role: 'system', content: 'Be brief' } });
    t.vapi.say('Goodbye', true);
    t.vapi.say('Hold on', false, true, true);
    expect(daily.sentMessages).toEqual([
      { type: 'add-message', message: { role: 'system', content: 'Be brief' } },
      {
        type: 'say',
        message: 'Goodbye',
        endCallAfterSpoken: true,
        interruptionsEnabled: false,
        interruptAssistantEnabled: false,
      },
      {
        type: 'say',
        message: 'Hold on',
        endCallAfterSpoken: false,
        interruptionsEnabled: true,
        interruptAssistantEnabled: true,
      },
    ]);
    await t.vapi.end();
    expect(daily.sentMessages.at(-1)).toEqual({ type: 'end-call' });
    expect(daily.destroyed).toBe(true);
    expect(t.names()).toContain('call-end');
  });

  it('noise cancellation failing at start is reported and the call goes on', async () => {
    const t = setup();
    t.daily.onCreate = (call) => (call.inputSettingsError = new Error('KrispInitError: Canceled'));
    await expect(t.vapi.start('assistant-1')).resolves.not.toBeNull();
    expect(t.progress()).toContain('audio-processing-setup:failed');
    expect(t.payloads<VapiErrorEvent>('error')[0]).toMatchObject({
      type: 'audio-processing-setup-error',
      error: expect.objectContaining({ message: 'KrispInitError: Canceled' }),
    });
    expect(t.names()).toContain('call-start-success');
  });

  it('an audio-processor-error turns noise cancellation off and the microphone back on', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    t.vapi.setMuted(true);
    daily.nonFatalError('audio-processor-error');
    await until(() => daily.audioProcessor === 'none', 'processor off');
    await flush();
    expect(daily.log.filter((c) => c.method === 'setLocalAudio').map((c) => c.args[0])).toEqual([
      false,
      true,
    ]);
    expect(t.vapi.isMuted()).toBe(false);
  });

  it('recovers from audio-processor-error once per call, so a room repeating it cannot loop', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    daily.nonFatalError('audio-processor-error');
    daily.nonFatalError('audio-processor-error');
    await until(() => daily.audioProcessor === 'none', 'processor off');
    await flush();
    daily.nonFatalError('audio-processor-error');
    await flush();
    const calls = daily.log.filter(
      (c) => c.method === 'updateInputSettings' || c.method === 'setAudioProcessor',
    );
    expect(calls.length).toBeLessThanOrEqual(2); // the start's noise cancellation, then one recovery
    expect(daily.log.filter((c) => c.method === 'setLocalAudio').map((c) => c.args[0])).toEqual([true]);
  });

  it('microphone permission denied arrives as camera-error', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    t.daily.last.permissionDenied();
    const [event] = t.payloads<{ type: string; error: { error: { type: string } } }>('camera-error');
    expect(event).toMatchObject({ type: 'camera-error', error: { error: { type: 'permissions' } } });
  });

  it('passes participant updates and network events through', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    daily.emit('participant-updated', {
      action: 'participant-updated',
      callClientId: daily.callClientId,
      participant: daily.local,
    });
    expect(t.payloads('daily-participant-updated')).toEqual([daily.local]);
  });

  it('speaking detection: speech-start over 0.01, volume min(1, sum/0.15), speech-end 1000 ms after', async () => {
    vi.useFakeTimers();
    const t = setup();
    const started = t.vapi.start('assistant-1');
    await vi.runAllTimersAsync();
    await started;
    const daily = t.daily.last;
    daily.remoteJoins();
    daily.audioLevel(0.005);
    daily.audioLevel(0.3);
    expect(t.payloads<number>('volume-level')).toEqual([0.005 / 0.15, 1]);
    expect(t.names((n) => n.startsWith('speech'))).toEqual(['speech-start']);
    await vi.advanceTimersByTimeAsync(999);
    expect(t.names((n) => n.startsWith('speech'))).toEqual(['speech-start']);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.names((n) => n.startsWith('speech'))).toEqual(['speech-start', 'speech-end']);
  });
});

describe('video recording', () => {
  const RECORDED = { ...WEB_CALL, artifactPlan: { videoRecordingEnabled: true } };

  it('creates the room with video, starts the recording, subscribes video and says the first message when it starts', async () => {
    const t = setup({ webCall: RECORDED });
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    expect(daily.factoryOptions).toMatchObject({ videoSource: true });
    expect(daily.log.find((c) => c.method === 'startRecording')?.args[0]).toEqual({
      width: 1280,
      height: 720,
      backgroundColor: '#FF1F2D3D',
      layout: { preset: 'default' },
    });
    const speaker = daily.remoteJoins();
    expect(daily.subscriptions.get(speaker.session_id)).toEqual({ audio: true, video: true });
    daily.emit('recording-started', { action: 'recording-started', callClientId: daily.callClientId });
    expect(daily.sentMessages).toContainEqual(
      expect.objectContaining({
        type: 'control',
        control: 'say-first-message',
        videoRecordingStartDelaySeconds: expect.any(Number),
      }),
    );
    expect(t.names()).toContain('recording-started');
    daily.startTrack('video');
    expect(t.names()).toContain('video');

    daily.serverEnds();
    await until(() => daily.destroyed, 'destroy');
    expect(daily.log.map((c) => c.method)).toContain('stopRecording');
  });

  it('with a meeting token the recording auto-starts: joins with the token and does not start it again', async () => {
    const t = setup({ webCall: { ...RECORDED, transport: { callToken: 'tok-1' } } });
    await t.vapi.start('assistant-1');
    const daily = t.daily.last;
    expect(daily.joinOptions).toMatchObject({ token: 'tok-1' });
    expect(daily.log.map((c) => c.method)).not.toContain('startRecording');
  });

  it('subscribes video for a tavus voice', async () => {
    const t = setup({ webCall: { ...WEB_CALL, assistant: { voice: { provider: 'tavus' } } } });
    await t.vapi.start('assistant-1');
    const speaker = t.daily.last.remoteJoins();
    expect(t.daily.last.subscriptions.get(speaker.session_id)).toEqual({ audio: true, video: true });
  });
});

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

describe('the room ending while connecting', () => {
  it('a fatal room error during join fails the start (not a cancellation) and releases the room', async () => {
    const t = setup();
    const gate = createGate();
    t.daily.onCreate = (call) => (call.joinGate = gate);
    const started = t.vapi.start('assistant-1');
    await until(() => t.daily.calls[0]?.meetingState === 'joining-meeting', 'joining');
    t.daily.last.fatalError('meeting is full');
    await expect(started).resolves.toBeNull();
    gate.open();
    const [failed] = t.payloads<CallStartFailedEvent>('call-start-failed');
    expect(failed).toMatchObject({
      stage: 'daily-call-join',
      error: 'The call room failed: meeting is full',
      context: expect.objectContaining({ cancelled: false }),
    });
    expect(t.payloads<VapiErrorEvent>('error').map((e) => e.type)).toEqual([
      'daily-error',
      'start-method-error',
    ]);
    await until(() => t.daily.last.destroyed, 'destroy');
    expect(t.daily.last.listenerTotal()).toBe(0);
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

describe('back-to-back calls', () => {
  it('a start right after stop() waits for the old room to be destroyed (one Daily call object at a time)', async () => {
    const t = setup();
    await t.vapi.start('assistant-1');
    const first = t.daily.last;
    let releaseDestroy!: () => void;
    const destroy = first.destroy.bind(first);
    first.destroy = () =>
      new Promise<void>((resolve) => (releaseDestroy = () => void destroy().then(resolve)));
    const stopped = t.vapi.stop();
    const second = t.vapi.start('assistant-1');
    await flush();
    expect(t.daily.calls).toHaveLength(1);
    releaseDestroy();
    await stopped;
    await expect(second).resolves.toMatchObject({ id: 'call-123' });
    expect(t.daily.calls).toHaveLength(2);
  });
});

describe('stop() while Daily is still loading', () => {
  it('destroys a room created after the stop, so the next call can create one', async () => {
    const t = setup();
    const stopping = new Promise<void>((resolve) => {
      const listener = (p: CallStartProgressEvent) => {
        // Room creation awaits the adapter's dynamic import: stop lands in the middle of it.
        if (p.stage !== 'daily-call-object-creation' || p.status !== 'started') return;
        t.vapi.off('call-start-progress', listener);
        resolve(t.vapi.stop());
      };
      t.vapi.on('call-start-progress', listener);
    });
    await expect(t.vapi.start('assistant-1')).resolves.toBeNull();
    await stopping;
    await until(() => t.daily.calls.every((c) => c.destroyed), 'rooms destroyed');
    expect(t.daily.calls.filter((c) => c.joinOptions)).toHaveLength(0);
    await expect(t.vapi.start('assistant-1')).resolves.toMatchObject({ id: 'call-123' });
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
