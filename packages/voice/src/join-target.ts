/**
 * What a created web call tells the SDK about its room: the URL to join and the recording layout
 * (the audio format a WebSocket room speaks is its own to check: rooms/websocket-audio-format.ts).
 * @module
 */
import { isWebSocketUrl } from './rooms/choose.js';
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
