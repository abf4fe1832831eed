import { describe, expect, it } from 'vitest';
import type { RoomEventMap } from './types.js';
import type { FakeStream } from './websocket-fakes.js';
import { getUserMedia, installRoomFakes, joined, pcm, revoked } from './websocket-room-harness.js';

// The WebSocket room against typed fakes of the browser's audio and socket objects, injected
// through the room options (no global is stubbed): what it asks for (microphone constraints,
// worklet module, socket URL), what it sends and plays, and that its teardown releases everything.
// The real browser path is covered by e2e/voice-call.spec.ts. Playback, closing and teardown:
// websocket-teardown.test.ts.
installRoomFakes();

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
});
