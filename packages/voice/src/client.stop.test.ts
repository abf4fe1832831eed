import { describe, expect, it, vi } from 'vitest';
import { clientHarness } from './test-harness.js';
import { audioElements } from './testing/dom.js';
import type { CallStartFailedEvent, CallStartProgressEvent, VapiErrorEvent } from './types.js';

const { createGate, flush, setup, START_STAGES, until, WEB_CALL } = clientHarness();

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
  for (const [index, stage] of START_STAGES.entries()) {
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
      const joined = index > START_STAGES.indexOf('daily-call-join');
      expect(t.names().filter((n) => n === 'call-end')).toHaveLength(joined ? 1 : 0);
      for (const call of t.daily.calls) expect(call.listenerTotal()).toBe(0);
      expect(audioElements()).toHaveLength(0);
      // The instance is usable again.
      await expect(t.vapi.start('assistant-2')).resolves.toMatchObject({ id: 'call-123' });
    });
  }
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
