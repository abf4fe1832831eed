/**
 * Which URLs a WebSocket room serves: a module of its own, so that the SDK loaded with the page
 * asks it without carrying the rest of the protocol (websocket-protocol.ts), which comes with the
 * room on the first start.
 * @module
 */

/** True when the call is joined over a WebSocket room (ws: or wss:) rather than Daily. */
export function isWebSocketUrl(url: string): boolean {
  return /^wss?:\/\//i.test(url);
}
