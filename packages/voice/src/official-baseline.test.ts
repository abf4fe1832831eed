/**
 * The baseline for defects.test.ts: the same scenarios run against the official @vapi-ai/web
 * (a dev dependency) over the same Daily fake, showing each defect is real. If an official release
 * fixes one, its test here fails and defects.test.ts should be revisited.
 *
 * The official SDK is CommonJS and requires '@daily-co/daily-js' itself; the fake is put in
 * Node's require cache under that path before the SDK loads.
 */
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGate, flush, until, WEB_CALL } from './test-harness.js';
import { audioElements, installMediaStubs } from './testing/dom.js';
import { FakeDaily } from './testing/fake-daily.js';

interface OfficialVapi {
  start(assistant: string): Promise<unknown>;
  stop(): Promise<void>;
  setMuted(muted: boolean): void;
  isMuted(): boolean;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}
type OfficialCtor = new (key: string, baseUrl?: string) => OfficialVapi;

const daily = new FakeDaily();
const require = createRequire(import.meta.url);
let Official: OfficialCtor;
let cached: string[] = [];
const requests: { url: string; auth: string | null }[] = [];
let answer: () => Promise<Response> = async () => new Response(JSON.stringify(WEB_CALL), { status: 201 });

beforeAll(() => {
  installMediaStubs();
  const before = new Set(Object.keys(require.cache));
  const fromSdk = createRequire(require.resolve('@vapi-ai/web'));
  const dailyPath = fromSdk.resolve('@daily-co/daily-js');
  const fakeModule = {
    __esModule: true,
    default: { createCallObject: (o: never) => daily.createCallObject(o) },
  };
  require.cache[dailyPath] = {
    id: dailyPath,
    filename: dailyPath,
    loaded: true,
    exports: fakeModule,
  } as NodeJS.Module;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), auth: new Headers(init?.headers).get('authorization') });
    return answer();
  });
  Official = (require('@vapi-ai/web') as { default: OfficialCtor }).default;
  cached = [dailyPath, ...Object.keys(require.cache).filter((key) => !before.has(key))];
});

afterAll(() => {
  // The worker process may run other files next: leave Node's module cache as it was.
  for (const key of cached) delete require.cache[key];
  vi.unstubAllGlobals();
});

afterEach(async () => {
  vi.useRealTimers();
  requests.length = 0;
  answer = async () => new Response(JSON.stringify(WEB_CALL), { status: 201 });
  for (const call of daily.calls) if (!call.destroyed) await call.destroy();
  document.body.innerHTML = '';
});

describe('@vapi-ai/web 2.7 shows the defects Engage fixes', () => {
  it('1. stop() while the web call is being created does not stop the call from being joined', async () => {
    const gate = createGate();
    answer = async () => {
      await gate.promise;
      return new Response(JSON.stringify(WEB_CALL), { status: 201 });
    };
    const vapi = new Official('pk');
    vapi.on('error', () => {});
    const started = vapi.start('assistant-1');
    await until(() => requests.length === 1, 'request');
    await vapi.stop();
    gate.open();
    await expect(started).resolves.not.toBeNull();
    expect(daily.last.meetingState).toBe('joined-meeting');
  });

  it('2. the <audio> element stays in the page after stop()', async () => {
    const vapi = new Official('pk');
    let playing = false;
    vapi.on('audio', () => (playing = true));
    await vapi.start('assistant-1');
    const call = daily.last;
    call.remoteJoins();
    call.startTrack('audio');
    await until(() => playing, 'audio playing');
    await vapi.stop();
    expect(audioElements()).toHaveLength(1);
  });

  it('3. speech-end fires after call-end', async () => {
    vi.useFakeTimers();
    const vapi = new Official('pk');
    const names: string[] = [];
    for (const e of ['call-end', 'speech-start', 'speech-end']) vapi.on(e, () => names.push(e));
    const started = vapi.start('assistant-1');
    await vi.runAllTimersAsync();
    await started;
    const call = daily.last;
    call.remoteJoins();
    call.audioLevel(0.5);
    await vapi.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(names).toEqual(['speech-start', 'call-end', 'speech-end']);
  });

  it('4. the last constructed instance’s key is used by every instance', async () => {
    const first = new Official('pk_first', 'http://first.test');
    new Official('pk_second', 'http://second.test');
    await first.start('assistant-1');
    expect(requests[0]).toEqual({ url: 'http://second.test/call/web', auth: 'Bearer pk_second' });
  });

  it('5. without an error listener a failed start rejects (an unhandled-error crash)', async () => {
    answer = async () => new Response('{"message":"Invalid key"}', { status: 401 });
    const vapi = new Official('pk');
    await expect(vapi.start('assistant-1')).rejects.toThrow();
  });

  it('6. isMuted() lags setMuted()', async () => {
    const vapi = new Official('pk');
    await vapi.start('assistant-1');
    vapi.setMuted(true);
    expect(vapi.isMuted()).toBe(false);
    await flush();
  });

  it('7. call-start-failed.error is not a string when the provider refuses the call', async () => {
    const body = { message: ['assistant.model must be an object'], error: 'Bad Request', statusCode: 400 };
    answer = async () => new Response(JSON.stringify(body), { status: 400, statusText: 'Bad Request' });
    const vapi = new Official('pk');
    const failed: { error: unknown }[] = [];
    vapi.on('error', () => {});
    vapi.on('call-start-failed', (e) => failed.push(e as { error: unknown }));
    await vapi.start('assistant-1');
    expect(typeof failed[0]?.error).not.toBe('string');
  });
});
