import type { WSContext } from 'hono/ws';
import { ROOM_CLOSE } from './rooms-options.js';

/** Why a room is refused: the close code, and the `{error, message}` the caller is sent. */
export interface Refusal {
  code: number;
  error: string;
  message: string;
}

/** What decides whether a call's room may open now. */
export interface Admission {
  /** This process ended the call already. */
  ended: boolean;
  /** A room for the call is open (another connection holds it). */
  connected: boolean;
  rooms: number;
  maxRooms: number;
  /** Rooms the caller's address holds; null for a caller without an address (held to maxRooms only). */
  addressRooms: number | null;
  maxRoomsPerAddress: number;
}

/** The first rule a new room breaks, or null when it may open. */
export function admissionRefusal(a: Admission): Refusal | null {
  if (a.ended) return { code: ROOM_CLOSE.ended, error: 'call_ended', message: 'This call has ended.' };
  if (a.connected)
    return {
      code: ROOM_CLOSE.busy,
      error: 'room_busy',
      message: 'This call is already connected elsewhere.',
    };
  if (a.rooms >= a.maxRooms)
    return {
      code: ROOM_CLOSE.tryAgainLater,
      error: 'room_limit',
      message: `All ${a.maxRooms} call rooms are in use; try again shortly.`,
    };
  if (a.addressRooms !== null && a.addressRooms >= a.maxRoomsPerAddress)
    return {
      code: ROOM_CLOSE.tryAgainLater,
      error: 'address_room_limit',
      message: `Your address holds ${a.maxRoomsPerAddress} call rooms; end one first.`,
    };
  return null;
}

/** Refuses a room: an error message the caller can read, then the close with the same reason. */
export function reject(ws: WSContext<unknown>, code: number, error: string, message: string): void {
  ws.send(JSON.stringify({ type: 'error', error, message }));
  ws.close(code, JSON.stringify({ error, message }).slice(0, 123));
}
