import { describe, expect, it, vi } from 'vitest';
import { clientHarness } from './test-harness.js';
import { audioElements } from './testing/dom.js';
import type { CallStartFailedEvent, CallStartProgressEvent, VapiErrorEvent } from './types.js';

const { createGate, flush, setup, START_STAGES, until, WEB_CALL } = clientHarness();

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
    expect(t.requests[0]!.headers.get('authorization')).toBe('Bearer pk_test');
    expect(t.progress()).toEqual(START_STAGES.flatMap((s) => [`${s}:started`, `${s}:completed`]));
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
