/**
 * The provider's `vapi.websocket` protocol as pure functions (websocket-url.ts says which URLs it serves):
 * what a text frame means, what goes on the wire, and what a close frame says. No socket, no browser: the
 * WebSocket room (`websocket.ts`) does the I/O and asks these.
 * @module
 */
import type { RoomEventMap } from './types.js';

/** The provider's default sample rate for WebSocket calls, and the emulator's rooms' rate. */
export const CALL_SAMPLE_RATE = 16_000;
/** The assistant's session id in the WebSocket room (there is no other remote participant). */
export const ASSISTANT_SESSION_ID = 'vapi-speaker';
/** `WebSocket.readyState` values (standard numbers, so no browser global is needed to read them). */
export const SOCKET_CONNECTING = 0;
export const SOCKET_OPEN = 1;
/** What the room sends before it closes the socket on leaving. */
export const HANGUP_MESSAGE = JSON.stringify({ type: 'hangup' });

/** A frame from the room, as the SDK needs it. */
export type IncomingFrame =
  { kind: 'listening' } | { kind: 'message'; data: string } | { kind: 'audio'; data: ArrayBuffer };

/**
 * Classifies a received frame: binary is the assistant's PCM audio; `{"type":"listening"}` (the
 * emulator's start signal) is `listening`; any other text is an app message passed on as it is
 * (JSON or not: the SDK decides what to do with it).
 */
export function parseIncoming(data: ArrayBuffer | string): IncomingFrame {
  if (typeof data !== 'string') return { kind: 'audio', data };
  try {
    if ((JSON.parse(data) as { type?: unknown } | null)?.type === 'listening') return { kind: 'listening' };
  } catch {
    // Not JSON: an app message all the same.
  }
  return { kind: 'message', data };
}

/** The text to send for an app message, or null: only JSON goes on the wire ('playable' is Daily-only). */
export function outgoingMessage(data: string): string | null {
  try {
    JSON.parse(data);
    return data;
  } catch {
    return null;
  }
}

/** The fields of a close frame the room reads (a `CloseEvent`'s). */
export interface SocketClose {
  code: number;
  reason: string;
}

/** The reason of a room's close frame, `{error, message}` JSON, as a sentence. */
export function closeMessage(close: SocketClose): string {
  try {
    const parsed = JSON.parse(close.reason) as { message?: unknown } | null;
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {
    // Not JSON: use the raw reason below.
  }
  return close.reason || `The call connection closed (code ${close.code}).`;
}

/** Why a join failed when the socket closed before opening (1006: nothing answered). */
export function joinFailureMessage(close: SocketClose): string {
  return close.code === 1006 ? 'Could not connect to the call room.' : closeMessage(close);
}

/** The room's `error` event for a close of a joined call, or null for a normal end (1000, 1001). */
export function closeError(close: SocketClose): RoomEventMap['error'] | null {
  // 1000: the call ended normally (its ended status came first); 1001: the server went away.
  if (close.code === 1000 || close.code === 1001) return null;
  return { errorMsg: closeMessage(close), error: { code: close.code, reason: close.reason } };
}

/** The microphone request: voice processing on, mono, and the chosen device when there is one. */
export function microphoneConstraints(deviceId?: string): MediaStreamConstraints {
  return {
    audio: {
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
      channelCount: 1,
      ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
    },
  };
}

/** Daily's camera-error type for a getUserMedia failure. */
export function cameraErrorType(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'permissions';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'not-found';
  if (name === 'NotReadableError') return 'cam-mic-in-use';
  return 'unknown';
}

/** The room's `camera-error` event for a microphone that could not be opened, in Daily's shape. */
export function microphoneError(error: unknown): RoomEventMap['camera-error'] {
  const message = (error as Error | null)?.message ?? String(error);
  return {
    errorMsg: { errorMsg: message, audioOk: false, videoOk: true },
    error: { type: cameraErrorType(error), msg: message },
  };
}
