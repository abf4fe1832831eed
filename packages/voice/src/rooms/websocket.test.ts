import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { Room, RoomEventMap, RoomEventName, RoomOptions } from './types.js';
import {
  FakeAudioContext,
  fakeBrowserApis,
  FakeSocket,
  FakeStream,
  FakeTrack,
  FakeWorkletNode,
} from './websocket-fakes.js';
import { createRoom as createWebSocketRoom } from './websocket.js';

// The WebSocket room against typed fakes of the browser's audio and socket objects, injected
// through the room options (no global is stubbed): what it asks for (microphone constraints,
// worklet module, socket URL), what it sends and plays, and that its teardown releases everything.
// The real browser path is covered by e2e/voice-call.spec.ts.

let getUserMedia: Mock<(constraints: MediaStreamConstraints) => Promise<FakeStream>>;
const revoked: string[] = [];

beforeEach(() => {
  getUserMedia = vi.fn(async () => new FakeStream());
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:worklet-1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => void revoked.push(url));
  revoked.length = 0;
  FakeSocket.last = undefined;
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const fakeApis = () => fakeBrowserApis(getUserMedia);

/** A WebSocket room over the fakes. */
function createRoom(options: Partial<RoomOptions> = {}): Room {
  return createWebSocketRoom({ audioSource: true, videoSource: false, ...fakeApis(), ...options });
}

function record(room: Room) {
  const events: { name: RoomEventName; payload: unknown }[] = [];
  const names: RoomEventName[] = [
    'participant-joined',
    'participant-left',
    'track-started',
    'track-stopped',
    'app-message',
    'left-meeting',
    'error',
    'camera-error',
    'remote-participants-audio-level',
    'local-audio-level',
  ];
  for (const name of names)
    room.on(name, (payload: RoomEventMap[typeof name]) => events.push({ name, payload }));
  return events;
}

async function joined(options: { startAudioOff?: boolean; captureWorkletUrl?: string } = {}) {
  FakeSocket.last = undefined;
  const room = createRoom(options);
  const events = record(room);
  const joining = room.join({
    url: 'ws://server.test/provider/rooms/c1',
    subscribeToTracksAutomatically: false,
  });
  await vi.waitFor(() => expect(FakeSocket.last?.url).toBe('ws://server.test/provider/rooms/c1'));
  FakeSocket.last!.open();
  await joining;
  await vi.waitFor(() => expect(events.some((e) => e.name === 'participant-joined')).toBe(true));
  return { room, events, ws: FakeSocket.last!, ctx: FakeAudioContext.last, worklet: FakeWorkletNode.last };
}

const pcm = (...samples: number[]) => new Int16Array(samples).buffer;

/** Joined, with the SDK subscribed to the assistant's audio (as it does on participant-joined). */
async function subscribed() {
  const call = await joined();
  const { participant } = call.events.find((e) => e.name === 'participant-joined')!
    .payload as RoomEventMap['participant-joined'];
  call.room.subscribe(participant.session_id, { audio: true, video: false });
  return call;
}

describe('the WebSocket room', () => {
  it('opens the microphone with echo cancellation, noise suppression and gain control, and a worklet from a blob URL', async () => {
    const { worklet, ctx } = await joined();
    expect(getUserMedia).toHaveBeenCalledWith({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
    expect(ctx.modules).toEqual(['blob:worklet-1']);
    expect(revoked).toEqual(['blob:worklet-1']);
    expect(worklet.options.processorOptions).toEqual({ targetRate: 16_000, frameSamples: 320 });
  });

  it('loads the worklet from captureWorkletUrl when given (a page whose CSP allows no blob: script)', async () => {
    const { ctx } = await joined({ captureWorkletUrl: 'https://engage.example/embed/capture-worklet-1.js' });
    expect(ctx.modules).toEqual(['https://engage.example/embed/capture-worklet-1.js']);
  });

  it('shows the assistant as Vapi Speaker and hands its audio as a track once subscribed', async () => {
    const { room, events, ctx } = await joined();
    const joinedEvent = events.find((e) => e.name === 'participant-joined')!
      .payload as RoomEventMap['participant-joined'];
    expect(joinedEvent.participant).toMatchObject({ user_name: 'Vapi Speaker', local: false });
    room.subscribe(joinedEvent.participant.session_id, { audio: true, video: false });
    expect(events.find((e) => e.name === 'track-started')?.payload).toMatchObject({
      track: ctx.playbackTrack,
    });
  });

  it('passes text frames on as app messages, with {type:"listening"} as the plain "listening"', async () => {
    const { ws, events } = await joined();
    ws.receive('{"type":"listening"}');
    ws.receive('{"type":"status-update","status":"in-progress"}');
    ws.receive('{"type":"listening"}');
    expect(
      events.filter((e) => e.name === 'app-message').map((e) => (e.payload as { data: unknown }).data),
    ).toEqual(['listening', '{"type":"status-update","status":"in-progress"}']);
  });

  it('takes a provider that never says listening to be listening once anything arrives', async () => {
    const { ws, events } = await joined();
    ws.receive(pcm(1, 2));
    ws.receive('{"type":"status-update","status":"in-progress"}');
    expect(
      events.filter((e) => e.name === 'app-message').map((e) => (e.payload as { data: unknown }).data),
    ).toEqual(['listening', '{"type":"status-update","status":"in-progress"}']);
  });

  it('sends microphone frames as binary and JSON app messages as text, never Daily-only strings', async () => {
    const { room, ws, worklet } = await joined();
    const frame = pcm(1, 2, 3);
    worklet.port.onmessage?.({ data: { pcm: frame, level: 0.2 } });
    expect(room.getLocalAudioLevel()).toBe(0.2);
    room.sendAppMessage('playable');
    room.sendAppMessage('{"type":"say","message":"hi"}');
    expect(ws.sent).toEqual([frame, '{"type":"say","message":"hi"}']);
  });

  it('mutes by disabling the microphone track, reporting a level of 0', async () => {
    const { room, worklet } = await joined();
    const track = ((await getUserMedia.mock.results[0]!.value) as FakeStream).tracks[0]!;
    room.setLocalAudio(false);
    expect(track.enabled).toBe(false);
    worklet.port.onmessage?.({ data: { pcm: pcm(0), level: 0 } });
    expect(room.getLocalAudioLevel()).toBe(0);
  });

  it('rejects a noise-suppression change the track refuses, without raising audio-processor-error', async () => {
    const { room } = await joined();
    const nonFatal: unknown[] = [];
    room.on('nonfatal-error', (e) => nonFatal.push(e));
    const track = ((await getUserMedia.mock.results[0]!.value) as FakeStream).tracks[0]!;
    track.applyConstraints = () => Promise.reject(new Error('OverconstrainedError'));
    await expect(room.setAudioProcessor('none')).rejects.toThrow('OverconstrainedError');
    // Before the fix this emitted 'audio-processor-error', whose recovery called this again: a loop.
    expect(nonFatal).toEqual([]);
  });

  it('holds audio that arrives before the SDK subscribes, then plays it from the start', async () => {
    const { room, ws, ctx, events } = await joined();
    ws.receive(pcm(1000, 1000));
    ws.receive(pcm(2000, 2000));
    expect(ctx.sources).toHaveLength(0);
    const { participant } = events.find((e) => e.name === 'participant-joined')!
      .payload as RoomEventMap['participant-joined'];
    room.subscribe(participant.session_id, { audio: true, video: false });
    expect(ctx.sources).toHaveLength(2);
    expect(ctx.sources[0]!.startedAt).toBeCloseTo(1.08);
  });

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
    await vi.waitFor(() => expect(FakeSocket.last?.url).toContain('gone'));
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
    await vi.waitFor(() => expect(FakeSocket.last?.url).toContain('c2'));
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
    await vi.waitFor(() => expect(FakeSocket.last?.url).toContain('c3'));
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
    await vi.waitFor(() => expect(grant).toBeDefined());
    await room.leave();
    const stream = new FakeStream();
    grant(stream);
    await expect(joining).rejects.toThrow('left while it was starting');
    expect(stream.tracks[0]!.stopped).toBe(true);
    expect(FakeSocket.last).toBeUndefined();
  });
});
