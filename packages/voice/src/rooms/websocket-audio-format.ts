/**
 * The audio format a WebSocket room speaks, checked before its socket opens. Loaded with the room
 * (choose.ts), not with the page.
 * @module
 */
import type { JoinableCall } from '../types.js';

/** The only audio the WebSocket room speaks: the provider's default for `vapi.websocket` calls. */
const ROOM_AUDIO_FORMAT = { format: 'pcm_s16le', sampleRate: 16_000 } as const;

/**
 * Throws when a WebSocket call asks for another audio format (µ-law, another rate): the room would
 * send and play noise. A call without `transport.audioFormat` uses the provider's default.
 */
export function assertRoomAudioFormat(webCall: JoinableCall): void {
  const audioFormat = webCall.transport?.audioFormat as
    { format?: unknown; sampleRate?: unknown } | undefined;
  if (typeof audioFormat !== 'object' || audioFormat === null) return;
  const format = audioFormat.format ?? ROOM_AUDIO_FORMAT.format;
  const sampleRate = audioFormat.sampleRate ?? ROOM_AUDIO_FORMAT.sampleRate;
  if (format === ROOM_AUDIO_FORMAT.format && sampleRate === ROOM_AUDIO_FORMAT.sampleRate) return;
  throw new Error(
    `The WebSocket call uses ${String(format)} at ${String(sampleRate)} Hz; this SDK speaks ` +
      `${ROOM_AUDIO_FORMAT.format} at ${ROOM_AUDIO_FORMAT.sampleRate} Hz. Create the call with that audioFormat.`,
  );
}
