import type { WSContext } from 'hono/ws';
import { admissionRefusal, reject } from './admission.js';
import { EchoAssistant } from './echo-assistant.js';
import { createEffectRunner, type Room } from './effect-runner.js';
import { everyInterval } from './node-runtime.js';
import { DEFAULT_AUDIO_FORMAT } from './pcm.js';
import type { RoomCall, RoomsOptions } from './rooms-options.js';
import type { createSpeaker } from './speech.js';

/**
 * The open rooms of this process: admission (at most so many, so many per address, never a call
 * that ended or one already connected), one clock ticking every room while any is open, and each
 * room's assistant run.
 * @module
 */

const ENDED_MEMORY = 1_000;
const TICK_MS = 20;

export interface RoomRegistrySettings {
  options: RoomsOptions;
  maxRooms: number;
  maxRoomsPerAddress: number;
  now: () => number;
  speaker: ReturnType<typeof createSpeaker>;
  answer: NonNullable<RoomsOptions['answer']>;
}

export function createRoomRegistry({
  options,
  maxRooms,
  maxRoomsPerAddress,
  now,
  speaker,
  answer,
}: RoomRegistrySettings) {
  const rooms = new Map<string, Room>();
  /** Open rooms per caller address key. */
  const perAddress = new Map<string, number>();
  /** Recently ended calls, so a reconnect is told the call is over (bounded, oldest forgotten). */
  const ended = new Set<string>();
  const schedule = options.schedule ?? everyInterval;
  /** Stops the room clock; set while any room is open. */
  let stopClock: (() => void) | null = null;

  const rememberEnded = (callId: string) => {
    ended.add(callId);
    if (ended.size > ENDED_MEMORY) ended.delete(ended.values().next().value as string);
  };

  const free = (room: Room) => {
    if (rooms.get(room.callId) !== room) return;
    rooms.delete(room.callId);
    if (room.address !== undefined) {
      const left = (perAddress.get(room.address) ?? 1) - 1;
      if (left > 0) perAddress.set(room.address, left);
      else perAddress.delete(room.address);
    }
    rememberEnded(room.callId);
    if (rooms.size === 0 && stopClock) {
      stopClock();
      stopClock = null;
    }
  };

  const run = createEffectRunner({
    options,
    answer,
    speaker,
    now,
    isCurrent: (room) => rooms.get(room.callId) === room,
    free,
  });

  const tick = () => {
    const t = now();
    for (const room of [...rooms.values()]) run(room, room.assistant.tick(t));
  };

  const open = (
    callId: string,
    call: RoomCall | null,
    greeting: { text: string; samples: Int16Array | null },
    ws: WSContext<unknown>,
    address: string | undefined,
  ): Room | null => {
    const refusal = admissionRefusal({
      ended: ended.has(callId),
      connected: rooms.has(callId),
      rooms: rooms.size,
      maxRooms,
      addressRooms: address === undefined ? null : (perAddress.get(address) ?? 0),
      maxRoomsPerAddress,
    });
    if (refusal) {
      reject(ws, refusal.code, refusal.error, refusal.message);
      return null;
    }
    const format = call?.audioFormat ?? DEFAULT_AUDIO_FORMAT;
    const { text, samples } = greeting;
    const assistant = new EchoAssistant({
      format,
      greeting: samples ? { text, samples } : null,
      // Conversation messages carry wall-clock times, as the provider's do.
      epochOffsetMs: Date.now() - now(),
      ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      ...(options.maxDurationMs !== undefined ? { maxDurationMs: options.maxDurationMs } : {}),
    });
    const room: Room = { callId, address, assistant, ws, droppedFrames: 0, pendingSays: 0 };
    rooms.set(callId, room);
    if (address !== undefined) perAddress.set(address, (perAddress.get(address) ?? 0) + 1);
    stopClock ??= schedule(tick, TICK_MS);
    run(room, assistant.start(now()));
    return room;
  };

  return {
    open,
    free,
    run,
    hasEnded: (callId: string) => ended.has(callId),
    isOpen: (callId: string) => rooms.has(callId),
    stats: () => ({
      rooms: rooms.size,
      maxRooms,
      bufferedSamples: [...rooms.values()].reduce((sum, r) => sum + r.assistant.bufferedSamples, 0),
    }),
    close() {
      for (const room of [...rooms.values()]) {
        room.assistant.disconnect();
        free(room);
        room.ws.send(
          JSON.stringify({ type: 'status-update', status: 'ended', endedReason: 'server-shutdown' }),
        );
        room.ws.close(1001, 'server shutting down');
      }
      stopClock?.();
      stopClock = null;
    },
  };
}
