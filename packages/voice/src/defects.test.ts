/**
 * The official SDK's known defects, one test each. Every test asserts the
 * behaviour a user would notice, and fails against the official SDK's behaviour (noted per test).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Vapi } from './client.js';
import { createGate, setup, until, WEB_CALL } from './test-harness.js';
import { audioElements } from './testing/dom.js';
import type { CallStartFailedEvent } from './types.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('known defects of @vapi-ai/web, fixed', () => {
  it('1. stop() while connecting cancels the start: no room is joined, start() resolves null', async () => {
    // Official: stop() only destroys a call object that does not exist yet; start() then
    // creates and joins the call anyway and resolves it.
    const gate = createGate();
    const t = setup({ httpGate: gate });
    const started = t.vapi.start('assistant-1');
    await until(() => t.requests.length === 1, 'request');
    const stopped = t.vapi.stop();
    gate.open();
    await stopped;
    await expect(started).resolves.toBeNull();
    expect(t.daily.calls.filter((c) => c.joinOptions)).toHaveLength(0);
    expect(t.names()).not.toContain('call-start-success');
  });

  it('2. audio elements are removed when a call ends, and repeated calls do not pile them up', async () => {
    // Official: the <audio> element stays in the page after stop() (only participant-left removed it).
    const t = setup();
    for (let i = 0; i < 5; i++) {
      await t.vapi.start('assistant-1');
      t.daily.last.remoteJoins();
      t.daily.last.startTrack('audio');
      await until(() => audioElements().length === 1, 'player');
      await t.vapi.stop();
      expect(audioElements()).toHaveLength(0);
    }
  });

  it('3. no speech-end (or anything) after call-end, except the final status message', async () => {
    // Official: cleanup() drops the speech timer's handle without clearing it, so speech-end fires
    // a second after call-end.
    vi.useFakeTimers();
    const t = setup();
    const started = t.vapi.start('assistant-1');
    await vi.runAllTimersAsync();
    await started;
    t.daily.last.remoteJoins();
    t.daily.last.audioLevel(0.4);
    expect(t.names()).toContain('speech-start');
    await t.vapi.stop();
    await vi.advanceTimersByTimeAsync(5000);
    const afterEnd = t.names().slice(t.names().indexOf('call-end') + 1);
    expect(afterEnd).toEqual(['message']);
    expect(t.names()).not.toContain('speech-end');
  });

  it('4. each instance keeps its own key and base URL', async () => {
    // Official: one module-level API client; the last constructed instance's key wins.
    const calls: { url: string; auth: string | null }[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), auth: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify(WEB_CALL), { status: 201 });
    });
    const first = setup({ key: 'pk_first', options: { fetch } });
    new Vapi('pk_second', 'http://other.test', undefined, undefined, { fetch });
    await first.vapi.start('assistant-1');
    expect(calls).toEqual([{ url: 'http://api.test/call/web', auth: 'Bearer pk_first' }]);
  });

  it('5. a failed start with no error listener resolves null instead of crashing', async () => {
    // Official: EventEmitter throws from emit('error') when nobody listens, so start() rejects
    // with an unhandled error.
    const t = setup({
      record: false,
      webCall: () => new Response('{"message":"Invalid key"}', { status: 401 }),
    });
    expect(t.vapi.listenerCount('error')).toBe(0);
    await expect(t.vapi.start('assistant-1')).resolves.toBeNull();
  });

  it('5. errors during a call with no error listener do not throw, and the call still ends cleanly', async () => {
    // Official: Daily's 'error' and 'nonfatal-error' handlers emit 'error'; with no listener
    // Node's EventEmitter throws out of Daily's event dispatch.
    const t = setup({ record: false });
    const ended = vi.fn();
    t.vapi.on('call-end', ended);
    await t.vapi.start('assistant-1');
    const call = t.daily.last;
    expect(t.vapi.listenerCount('error')).toBe(0);
    expect(() => call.nonFatalError('local-audio-level-observer-error')).not.toThrow();
    expect(() => call.fatalError('connection lost')).not.toThrow();
    await until(() => call.destroyed, 'destroy');
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('6. isMuted() reflects setMuted() at once', async () => {
    // Official: isMuted() reads Daily's localAudio(), which changes only after Daily's call machine
    // answers (the fake lags a tick the same way).
    const t = setup();
    await t.vapi.start('assistant-1');
    t.vapi.setMuted(true);
    expect(t.daily.last.localAudio()).toBe(true); // Daily has not caught up yet
    expect(t.vapi.isMuted()).toBe(true);
  });

  it('7. call-start-failed.error is a string even when the provider answers with a body object', async () => {
    // Official: the generated client throws the response, and the body object lands in `error`.
    const body = { message: ['assistant.model must be an object'], error: 'Bad Request', statusCode: 400 };
    const t = setup({
      webCall: () => new Response(JSON.stringify(body), { status: 400, statusText: 'Bad Request' }),
    });
    await t.vapi.start({ name: 'broken' });
    const [failed] = t.payloads<CallStartFailedEvent>('call-start-failed');
    expect(typeof failed!.error).toBe('string');
    expect(failed!.error).toBe('400 Bad Request: assistant.model must be an object');
    expect(failed!.errorBody).toEqual(body);
    expect(failed!.errorStatus).toBe(400);
  });

  it('8. importing and constructing touch no browser global', async () => {
    // Official: daily-js is imported at module load, and its bundle reads browser globals; in SSR
    // the import fails with "document is not defined". (dist.test.ts checks the built files in Node.)
    const documentSpy = vi.spyOn(globalThis, 'document', 'get');
    const windowSpy = vi.spyOn(globalThis, 'window', 'get');
    const navigatorSpy = vi.spyOn(globalThis, 'navigator', 'get');
    // A fresh module graph, so the import itself runs under the spies (not a cached module).
    vi.resetModules();
    const mod = await import('./index.js');
    const vapi = new mod.default('pk_test');
    vapi.on('call-start', () => {});
    vapi.setVolume(0.5);
    expect(vapi.isMuted()).toBe(false);
    expect(documentSpy).not.toHaveBeenCalled();
    expect(windowSpy).not.toHaveBeenCalled();
    expect(navigatorSpy).not.toHaveBeenCalled();
  });
  // 9. (bundle size, Daily not bundled) runs in Node: see dist.test.ts.
});
