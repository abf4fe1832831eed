/**
 * What a created web call tells the SDK about its room: the URL to join, the audio format a
 * WebSocket room must speak, and the recording layout.
 * @module
 */
import { isWebSocketUrl } from './rooms/websocket-protocol.js';
import type { JoinableCall } from './types.js';

/** Recording layout. */
export const RECORDING_LAYOUT = {
  width: 1280,
  height: 720,
  backgroundColor: '#FF1F2D3D',
  layout: { preset: 'default' as const },
};

/** The URL to join and whether it is a WebSocket room. */
export function joinTarget(webCall: JoinableCall): string | undefined {
  if (typeof webCall.webCallUrl === 'string' && webCall.webCallUrl) return webCall.webCallUrl;
  const ws = webCall.transport?.websocketCallUrl;
  if (typeof ws === 'string' && isWebSocketUrl(ws)) return ws;
  const callUrl = webCall.transport?.callUrl;
  return typeof callUrl === 'string' && callUrl ? callUrl : undefined;
}

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
