import { Hono } from 'hono';
import type { WSContext } from 'hono/ws';
import { z } from 'zod';
import { addressKey, socketAddress } from '../address-limit.js';
import { NO_DOCUMENTS } from '../knowledge/retrieval.js';
import { admissionRefusal, reject } from './admission.js';
import type { AssistantEffect, EndedReason } from './assistant-effects.js';
import { EchoAssistant } from './echo-assistant.js';
import { ensureErrorEvent, everyInterval } from './node-runtime.js';
import { DEFAULT_AUDIO_FORMAT, encode, SUPPORTED_SAMPLE_RATES } from './pcm.js';
import {
  DEFAULT_GREETING,
  ROOM_CLOSE,
  type CallClaim,
  type RoomCall,
  type Rooms,
  type RoomsOptions,
} from './rooms-options.js';
import { createSpeaker } from './speech.js';

/**
 * Local call rooms: one WebSocket per call carrying the provider's `vapi.websocket` protocol
 * (binary frames of raw audio both ways, JSON text frames for control), answered by the offline
 * echo assistant 'Vapi Speaker'. Mount the returned app at `/rooms` under the emulator.
 * @module
 */

export { EchoAssistant } from './echo-assistant.js';
export type { EndedReason } from './assistant-effects.js';
export { createSpeaker } from './speech.js';
export type { AudioFormat } from './pcm.js';
export type { ArtifactMessage } from './transcript.js';
export * from './rooms-options.js';

const callIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a call id is 1–128 letters, digits, - or _');

interface Room {
  callId: string;
  /** The caller's address key, counted in `perAddress` while the room is open. */
  address: string | undefined;
  assistant: EchoAssistant;
  ws: WSContext<unknown>;
  droppedFrames: number;
  /** `say` and `add-message` answers being prepared (bounded per room). */
  pendingSays: number;
}

/** `say` and `add-message` answers a room prepares at once; more are refused with an error message. */
const MAX_PENDING_SAYS = 2;

/** Frames are dropped for a caller who stops reading rather than buffering without bound. */
const MAX_SOCKET_BACKLOG = 512 * 1024;
const ENDED_MEMORY = 1_000;
const TICK_MS = 20;

export function createRooms(options: RoomsOptions): Rooms {
  ensureErrorEvent();
  const maxRooms = options.maxRooms ?? 50;
  const maxRoomsPerAddress = options.maxRoomsPerAddress ?? 5;
  const clientAddress = options.clientAddress ?? socketAddress;
  const maxFrameBytes = options.maxFrameBytes ?? 64 * 1024;
  const now = options.now ?? (() => performance.now());
  const speaker = options.speaker ?? createSpeaker();
  const resolveCall = options.resolveCall ?? ((): RoomCall => ({}));
  const answer = options.answer ?? (async () => NO_DOCUMENTS);
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

  const run = (room: Room, effects: AssistantEffect[]) => {
    for (const effect of effects) {
      if (effect.type === 'audio') {
        const backlog = (room.ws.raw as { bufferedAmount?: number } | undefined)?.bufferedAmount ?? 0;
        if (backlog > MAX_SOCKET_BACKLOG) room.droppedFrames++;
        else room.ws.send(encode(room.assistant.format.format, effect.samples));
      } else if (effect.type === 'speak' || effect.type === 'answer') {
        if (room.pendingSays >= MAX_PENDING_SAYS) {
          const [error, what] =
            effect.type === 'speak' ? ['say_busy', 'say messages'] : ['answer_busy', 'questions'];
          room.ws.send(
            JSON.stringify({ type: 'error', error, message: `Still preparing the previous ${what}.` }),
          );
          continue;
        }
        room.pendingSays++;
        const kind = effect.type === 'speak' ? 'say' : 'answer';
        // Looking the answer up and synthesising it are slow: done here, then handed to the assistant.
        const text =
          effect.type === 'speak'
            ? Promise.resolve(effect.text)
            : answer(room.callId, effect.question).catch((error: unknown) => {
                options.logger?.warn('call room: answering failed', {
                  callId: room.callId,
                  error: String(error),
                });
                return "Sorry, I couldn't look that up.";
              });
        const endCallAfter = effect.type === 'speak' && effect.endCallAfterSpoken;
        void text.then(async (said) => {
          const samples = await speaker.speak(said, room.assistant.format.sampleRate);
          room.pendingSays--;
          if (rooms.get(room.callId) === room)
            run(room, room.assistant.say(samples, said, endCallAfter, now(), kind));
        });
      } else if (effect.type === 'record') {
        options.onMessage?.(room.callId, effect.message);
      } else if (effect.type === 'json') {
        room.ws.send(JSON.stringify(effect.message));
        const { message } = effect;
        if (message.type === 'status-update')
          options.onStatus?.(room.callId, {
            status: message.status === 'ended' ? 'ended' : 'in-progress',
            ...(message.endedReason ? { endedReason: message.endedReason as EndedReason } : {}),
          });
      } else {
        // The room is freed as soon as the call ends, before the closing handshake completes.
        free(room);
        room.ws.close(effect.code, effect.reason);
      }
    }
  };

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

  const app = new Hono();
  app.get('/:callId', async (c) => {
    const parsed = callIdSchema.safeParse(c.req.param('callId'));
    if (!parsed.success)
      return c.json(
        { error: 'invalid_call_id', message: parsed.error.issues[0]?.message ?? 'invalid call id' },
        400,
      );
    if (c.req.header('upgrade')?.toLowerCase() !== 'websocket')
      return c.json(
        { error: 'upgrade_required', message: 'A call room is a WebSocket: connect with ws:// or wss://.' },
        426,
        { Upgrade: 'websocket' },
      );
    const callId = parsed.data;
    const remote = clientAddress(c);
    const address = remote === undefined ? undefined : addressKey(remote);
    const call = await resolveCall(callId);
    // Claimed before the upgrade, so a second connection on any instance is told the call is busy.
    const claim: CallClaim = call && options.claimCall ? await options.claimCall(callId) : 'claimed';
    const format = call?.audioFormat ?? DEFAULT_AUDIO_FORMAT;
    if (!(SUPPORTED_SAMPLE_RATES as readonly number[]).includes(format.sampleRate))
      return c.json(
        { error: 'unsupported_audio_format', message: `Sample rate ${format.sampleRate} is not supported.` },
        400,
      );
    // The greeting is synthesised before the upgrade (cached after the first call), so
    // the call starts with it at once.
    const greetingText = call?.firstMessage?.trim() || DEFAULT_GREETING;
    const greeting = {
      text: greetingText,
      samples: call ? await speaker.speak(greetingText, format.sampleRate) : null,
    };

    let room: Room | null = null;
    const leave = () => {
      if (!room) return;
      const wasActive = room.assistant.phase === 'active';
      room.assistant.disconnect();
      free(room);
      if (wasActive) options.onStatus?.(room.callId, { status: 'ended', endedReason: 'customer-ended-call' });
      room = null;
    };
    return options.upgradeWebSocket(c, {
      onOpen: (_event, ws) => {
        // A call this process ended is no longer known to the provider, but the caller is told it ended.
        if (!call && !ended.has(callId))
          return reject(ws, ROOM_CLOSE.unknownCall, 'call_not_found', `No call ${callId}.`);
        if (claim === 'busy')
          return reject(ws, ROOM_CLOSE.busy, 'room_busy', 'This call is already connected elsewhere.');
        if (claim === 'ended') return reject(ws, ROOM_CLOSE.ended, 'call_ended', 'This call has ended.');
        room = open(callId, call, greeting, ws, address);
        if (!room && call && options.claimCall) options.releaseCall?.(callId);
      },
      onMessage: (event, ws) => {
        if (!room) return;
        const { data } = event;
        if (typeof data === 'string') return run(room, room.assistant.receiveText(data, now()));
        if (!(data instanceof ArrayBuffer)) return;
        if (data.byteLength > maxFrameBytes) {
          leave();
          return reject(
            ws,
            ROOM_CLOSE.tooBig,
            'frame_too_large',
            `Audio frames may be at most ${maxFrameBytes} bytes; send 20–100 ms per frame.`,
          );
        }
        run(room, room.assistant.receiveAudio(new Uint8Array(data), now()));
      },
      onClose: leave,
      onError: (event) => {
        options.logger?.warn('call room socket error', {
          callId,
          error: String((event as ErrorEvent).error ?? ''),
        });
        leave();
      },
    });
  });

  return {
    app,
    stats: () => ({
      rooms: rooms.size,
      maxRooms,
      bufferedSamples: [...rooms.values()].reduce((sum, r) => sum + r.assistant.bufferedSamples, 0),
    }),
    isOpen: (callId) => rooms.has(callId),
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
