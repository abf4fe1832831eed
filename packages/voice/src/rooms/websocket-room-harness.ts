// Test support for websocket*.test.ts: a WebSocket room over the typed fakes of websocket-fakes.ts,
// the events it raises, and a joined (and subscribed) call. `getUserMedia` is a fresh mock per test.
import { afterEach, beforeEach, expect, vi, type Mock } from 'vitest';
import type { Room, RoomEventMap, RoomEventName, RoomOptions } from './types.js';
import {
  FakeAudioContext,
  fakeBrowserApis,
  FakeSocket,
  FakeStream,
  FakeWorkletNode,
} from './websocket-fakes.js';
import { createRoom as createWebSocketRoom } from './websocket.js';

export let getUserMedia: Mock<(constraints: MediaStreamConstraints) => Promise<FakeStream>>;
/** The object URLs the room revoked in the current test. */
export const revoked: string[] = [];

/** Registers the hooks: fresh mocks before each test, real timers and no spies after. */
export function installRoomFakes() {
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
}

const fakeApis = () => fakeBrowserApis(getUserMedia);

/** A WebSocket room over the fakes. */
export function createRoom(options: Partial<RoomOptions> = {}): Room {
  return createWebSocketRoom({ audioSource: true, videoSource: false, ...fakeApis(), ...options });
}

export function record(room: Room) {
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

export async function joined(options: { startAudioOff?: boolean; captureWorkletUrl?: string } = {}) {
  FakeSocket.last = undefined;
  const room = createRoom(options);
  const events = record(room);
  const joining = room.join({
    url: 'ws://server.test/provider/rooms/c1',
    subscribeToTracksAutomatically: false,
  });
  await vi.waitFor(() => expect(FakeSocket.last?.url).toBe('ws://server.test/provider/rooms/c1'), {
    timeout: 5_000,
  });
  FakeSocket.last!.open();
  await joining;
  await vi.waitFor(() => expect(events.some((e) => e.name === 'participant-joined')).toBe(true), {
    timeout: 5_000,
  });
  return { room, events, ws: FakeSocket.last!, ctx: FakeAudioContext.last, worklet: FakeWorkletNode.last };
}

export const pcm = (...samples: number[]) => new Int16Array(samples).buffer;

/** Joined, with the SDK subscribed to the assistant's audio (as it does on participant-joined). */
export async function subscribed() {
  const call = await joined();
  const { participant } = call.events.find((e) => e.name === 'participant-joined')!
    .payload as RoomEventMap['participant-joined'];
  call.room.subscribe(participant.session_id, { audio: true, video: false });
  return call;
}
