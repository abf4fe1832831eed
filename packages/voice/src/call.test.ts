import { describe, expect, it } from 'vitest';
import { LiveCall } from './call.js';
import { createDailyRoom } from './rooms/daily.js';
import { installMediaStubs } from './testing/dom.js';
import { FakeDaily } from './testing/fake-daily.js';

// LiveCall's phases as the start routine drives them, over a Daily room on the typed fake.
const MEDIA = { videoRecording: false, videoEnabled: false };
const JOIN = { url: 'https://engage.daily.co/room-1', subscribeToTracksAutomatically: false } as const;

function setup(options: { startMuted?: boolean } = {}) {
  installMediaStubs();
  const daily = new FakeDaily();
  const room = createDailyRoom({ audioSource: true, videoSource: false }, daily);
  const emitted: string[] = [];
  const call = new LiveCall(
    {
      emit: (event: string, ..._args: unknown[]) => void emitted.push(event),
      listenerCount: () => 0,
      volume: () => null,
    },
    { startMuted: options.startMuted ?? false },
  );
  return { call, room, vendor: daily.last, emitted };
}

describe('LiveCall phases', () => {
  it('goes starting → connecting → joined → live, carrying its room, and ends by leaving and destroying it', async () => {
    const { call, room, vendor, emitted } = setup();
    expect(call.phase.name).toBe('starting');
    expect(call.room).toBeNull();
    call.attach(room, MEDIA);
    expect(call.phase).toEqual({ name: 'connecting', room });
    expect(call.joinedRoom).toBeNull();
    await room.join(JOIN);
    call.markJoined({ startedMuted: false });
    expect(call.phase).toEqual({ name: 'joined', room });
    expect(call.joinedRoom).toBe(room);
    call.markLive();
    expect(call.phase.name).toBe('live');
    await call.end('done');
    expect(call.ended).toBe(true);
    expect(call.room).toBeNull();
    expect(vendor.log.map((c) => c.method)).toEqual(expect.arrayContaining(['leave', 'destroy']));
    expect(emitted).toContain('call-end');
  });

  it('while starting, end() only cancels the start; the teardown destroys a room that was never joined', async () => {
    const { call, room, vendor, emitted } = setup();
    call.attach(room, MEDIA);
    void call.end('stop() was called.', { byUser: true });
    expect(call.signal.aborted).toBe(true);
    expect(call.phase.name).toBe('connecting');
    // The start routine's failure path:
    call.markEnded();
    call.markJoined({ startedMuted: false });
    expect(call.phase.name).toBe('ended');
    await call.teardown();
    const methods = vendor.log.map((c) => c.method);
    expect(methods).toContain('destroy');
    expect(methods).not.toContain('leave');
    expect(emitted).not.toContain('call-end');
  });

  it('keeps a mute chosen while connecting and applies it once joined', async () => {
    const { call, room, vendor } = setup();
    call.attach(room, MEDIA);
    call.setMuted(true);
    expect(call.muted).toBe(true);
    expect(vendor.log.map((c) => c.method)).not.toContain('setLocalAudio');
    await room.join(JOIN);
    call.markJoined({ startedMuted: false });
    expect(vendor.log.filter((c) => c.method === 'setLocalAudio').map((c) => c.args)).toEqual([[false]]);
    await call.teardown();
  });

  it('takes one room, and goes live only from joined', () => {
    const { call, room } = setup();
    expect(() => call.markLive()).toThrow('starting');
    call.attach(room, MEDIA);
    expect(() => call.attach(room, MEDIA)).toThrow('connecting');
    expect(() => call.markLive()).toThrow('connecting');
  });
});
