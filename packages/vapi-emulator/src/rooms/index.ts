import { Hono } from 'hono';
import { z } from 'zod';
import { addressKey, socketAddress } from '../address-limit.js';
import { NO_DOCUMENTS } from '../knowledge/retrieval.js';
import { reject } from './admission.js';
import type { Room } from './effect-runner.js';
import { ensureErrorEvent } from './node-runtime.js';
import { DEFAULT_AUDIO_FORMAT, SUPPORTED_SAMPLE_RATES } from './pcm.js';
import { createRoomRegistry } from './room-registry.js';
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
  const registry = createRoomRegistry({ options, maxRooms, maxRoomsPerAddress, now, speaker, answer });

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
      // Only records remain to be run (the socket is gone): what was said of a reply cut short.
      registry.run(room, room.assistant.disconnect(now()));
      registry.free(room);
      if (wasActive) options.onStatus?.(room.callId, { status: 'ended', endedReason: 'customer-ended-call' });
      room = null;
    };
    return options.upgradeWebSocket(c, {
      onOpen: (_event, ws) => {
        // A call this process ended is no longer known to the provider, but the caller is told it ended.
        if (!call && !registry.hasEnded(callId))
          return reject(ws, ROOM_CLOSE.unknownCall, 'call_not_found', `No call ${callId}.`);
        if (claim === 'busy')
          return reject(ws, ROOM_CLOSE.busy, 'room_busy', 'This call is already connected elsewhere.');
        if (claim === 'ended') return reject(ws, ROOM_CLOSE.ended, 'call_ended', 'This call has ended.');
        room = registry.open(callId, call, greeting, ws, address);
        if (!room && call && options.claimCall) options.releaseCall?.(callId);
      },
      onMessage: (event, ws) => {
        if (!room) return;
        const { data } = event;
        if (typeof data === 'string') return registry.run(room, room.assistant.receiveText(data, now()));
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
        registry.run(room, room.assistant.receiveAudio(new Uint8Array(data), now()));
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
    stats: registry.stats,
    isOpen: registry.isOpen,
    close: registry.close,
  };
}
