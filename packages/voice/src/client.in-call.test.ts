import { describe, expect, it, vi } from 'vitest';
import { VoiceStateError } from './errors.js';
import { createGate, flush, setup, until, withClientTestHooks, WEB_CALL } from './test-harness.js';
import { audioElements, blockAutoplay } from './testing/dom.js';
import type { VapiErrorEvent } from './types.js';

withClientTestHooks();

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
