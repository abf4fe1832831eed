import { describe, expect, it, vi } from 'vitest';
import type { RoomEventMap } from './types.js';
import { FakeAudioContext, FakeSocket, FakeStream, FakeTrack } from './websocket-fakes.js';
import {
  createRoom,
  getUserMedia,
  joined,
  pcm,
  record,
  subscribed,
  installRoomFakes,
} from './websocket-room-harness.js';

// The WebSocket room against typed fakes (see websocket.test.ts): playback, how it ends, and that
// leaving or failing releases the microphone, the socket and the audio context.
installRoomFakes();

describe('the WebSocket room ending and releasing', () => {
  it('plays received audio through the jitter buffer and reports its level while it plays', async () => {
    vi.useFakeTimers();
    const { room, ws, ctx, events } = await subscribed();
    ws.receive(pcm(...Array.from({ length: 320 }, () => 8000)));
    ws.receive(pcm(...Array.from({ length: 320 }, () => 8000)));
    expect(ctx.sources.map((s) => s.startedAt)).toEqual([1.08, 1.1]);
    await room.startRemoteAudioLevelObserver(100);
    ctx.currentTime = 1.09;
    vi.advanceTimersByTime(100);
    ctx.currentTime = 2;
    vi.advanceTimersByTime(100);
    const levels = events
      .filter((e) => e.name === 'remote-participants-audio-level')
      .map(
        (e) =>
          Object.values(
            (e.payload as RoomEventMap['remote-participants-audio-level']).participantsAudioLevel,
          )[0],
      );
    expect(levels[0]).toBeCloseTo(8000 / 32768, 3);
    expect(levels[1]).toBe(0);
  });

  it('ends on the server closing normally, and reports other closes as errors with their reason', async () => {
    const normal = await joined();
    normal.ws.serverClose(1000, 'call ended');
    expect(normal.events.map((e) => e.name)).toContain('left-meeting');
    expect(normal.events.map((e) => e.name)).not.toContain('error');

    const limited = await joined();
    limited.ws.serverClose(1013, '{"error":"room_limit","message":"All 50 call rooms are in use."}');
    expect(limited.events.find((e) => e.name === 'error')?.payload).toMatchObject({
      errorMsg: 'All 50 call rooms are in use.',
    });
    expect(limited.ctx.state).toBe('closed');
  });

  it('rejects join with the room’s reason when it refuses the call before opening', async () => {
    const room = createRoom();
    const joining = room.join({
      url: 'ws://server.test/provider/rooms/gone',
      subscribeToTracksAutomatically: false,
    });
    await vi.waitFor(() => expect(FakeSocket.last?.url).toContain('gone'), { timeout: 5_000 });
    FakeSocket.last!.serverClose(4404, '{"error":"call_not_found","message":"No call gone."}');
    await expect(joining).rejects.toThrow('No call gone.');
    expect(FakeAudioContext.last.state).toBe('closed');
  });

  it('reports a denied microphone as a permissions camera-error and releases the audio context', async () => {
    getUserMedia.mockRejectedValueOnce(
      Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' }),
    );
    const room = createRoom();
    const events = record(room);
    await expect(
      room.join({ url: 'ws://server.test/provider/rooms/c1', subscribeToTracksAutomatically: false }),
    ).rejects.toThrow('Permission denied');
    expect(events.find((e) => e.name === 'camera-error')?.payload).toMatchObject({
      error: { type: 'permissions' },
    });
    expect(FakeAudioContext.last.state).toBe('closed');
  });

  it('leaves by hanging up, then closes the socket, stops the microphone and playback, and closes the context', async () => {
    const { room, ws, ctx, events, worklet } = await subscribed();
    const track = ((await getUserMedia.mock.results[0]!.value) as FakeStream).tracks[0]!;
    ws.receive(pcm(100, 200));
    await room.startLocalAudioLevelObserver(100);
    await room.leave();
    expect(ws.sent.at(-1)).toBe('{"type":"hangup"}');
    expect(ws.closedWith?.[0]).toBe(1000);
    expect(track.stopped).toBe(true);
    expect(ctx.playbackTrack.stopped).toBe(true);
    expect(ctx.sources.every((s) => s.stopped)).toBe(true);
    expect(ctx.state).toBe('closed');
    expect(worklet.port.posted).toContain('stop');
    expect(room.isLocalAudioLevelObserverRunning()).toBe(false);
    expect(events.filter((e) => e.name === 'left-meeting')).toHaveLength(1);
    await room.destroy();
    await room.destroy();
    expect(events.filter((e) => e.name === 'left-meeting')).toHaveLength(1);
  });

  it('keeps a microphone track the app passed in running after the call', async () => {
    const own = new FakeTrack();
    const room = createRoom({ audioSource: own as unknown as MediaStreamTrack });
    const joining = room.join({
      url: 'ws://server.test/provider/rooms/c2',
      subscribeToTracksAutomatically: false,
    });
    await vi.waitFor(() => expect(FakeSocket.last?.url).toContain('c2'), { timeout: 5_000 });
    FakeSocket.last!.open();
    await joining;
    await room.destroy();
    expect(getUserMedia).not.toHaveBeenCalled();
    expect(own.stopped).toBe(false);
  });

  it('fails a join that is still connecting when the room is destroyed, releasing everything', async () => {
    const room = createRoom();
    const joining = room.join({
      url: 'ws://server.test/provider/rooms/c3',
      subscribeToTracksAutomatically: false,
    });
    await vi.waitFor(() => expect(FakeSocket.last?.url).toContain('c3'), { timeout: 5_000 });
    await room.destroy();
    await expect(joining).rejects.toThrow('left while it was connecting');
    expect(FakeSocket.last!.closedWith?.[0]).toBe(1000);
    expect(FakeAudioContext.last.state).toBe('closed');
  });

  it('releases a microphone granted after the room was left', async () => {
    let grant!: (stream: FakeStream) => void;
    getUserMedia.mockImplementationOnce(() => new Promise((resolve) => (grant = resolve)));
    const room = createRoom();
    const joining = room.join({
      url: 'ws://server.test/provider/rooms/c4',
      subscribeToTracksAutomatically: false,
    });
    await vi.waitFor(() => expect(grant).toBeDefined(), { timeout: 5_000 });
    await room.leave();
    const stream = new FakeStream();
    grant(stream);
    await expect(joining).rejects.toThrow('left while it was starting');
    expect(stream.tracks[0]!.stopped).toBe(true);
    expect(FakeSocket.last).toBeUndefined();
  });
});
