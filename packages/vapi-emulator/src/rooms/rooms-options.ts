import type { Context, Hono } from 'hono';
import type { WSEvents } from 'hono/ws';
import type { ClientAddress } from '../address-limit.js';
import type { EndedReason } from './assistant-effects.js';
import type { AudioFormat } from './pcm.js';
import type { Speaker } from './speech.js';
import type { ArtifactMessage } from './transcript.js';

/**
 * The call rooms' public surface: their options, what they answer, and the close codes and names
 * callers see. The rooms themselves are `index.ts`.
 * @module
 */

/** The assistant's participant name, which the web SDK plays. */
export const SPEAKER_NAME = 'Vapi Speaker';

export const DEFAULT_GREETING = 'Hello! This is an offline echo call. Say something, and I will repeat it.';

/** WebSocket close codes a room uses; the reason is a short JSON object `{error, message}`. */
export const ROOM_CLOSE = {
  normal: 1000,
  protocolError: 1008,
  tooBig: 1009,
  /** The concurrent-room limit is reached, for everyone or for the caller's address. */
  tryAgainLater: 1013,
  unknownCall: 4404,
  /** Another connection already holds this call. */
  busy: 4409,
  /** The call already ended. */
  ended: 4410,
} as const;

/** The upgrade helper of the platform adapter (`createNodeWebSocket({ app }).upgradeWebSocket`). */
export type RoomUpgrade = (c: Context, events: WSEvents<unknown>) => Promise<Response>;

/** What the provider knows of a call a room serves. */
export interface RoomCall {
  /** Spoken once the caller connects; a default greeting otherwise. */
  firstMessage?: string | null;
  audioFormat?: AudioFormat;
}

/** The outcome of `claimCall`. */
export type CallClaim = 'claimed' | 'busy' | 'ended';

export interface RoomStatusUpdate {
  status: 'in-progress' | 'ended';
  endedReason?: EndedReason;
}

export interface RoomsOptions {
  upgradeWebSocket: RoomUpgrade;
  /** The call behind a room id, or null for an unknown id. Default: every well-formed id is a 16 kHz call. */
  resolveCall?: (callId: string) => RoomCall | null | Promise<RoomCall | null>;
  /**
   * Takes the call for this connection where every instance sees it (the provider's record), so a
   * call is held by one connection across all instances: 'busy' while another holds it, 'ended'
   * once it is over. Default: only this process's rooms are known.
   */
  claimCall?: (callId: string) => Promise<CallClaim>;
  /** Gives back a claim whose room was refused here (a room limit), so the call may be joined later. */
  releaseCall?: (callId: string) => void;
  /** Told when a call starts and ends, so the provider can update its record. */
  onStatus?: (callId: string, update: RoomStatusUpdate) => void;
  /**
   * Told of each message of the conversation (the greeting, what the assistant says, typed messages
   * and their answers), so the provider keeps the call's artifact. Echoes have no text and are not told.
   */
  onMessage?: (callId: string, message: ArtifactMessage) => void;
  /**
   * The call's assistant's answer to a question typed during the call (`add-message`), spoken and
   * captioned. Default: it has no documents (the emulator answers from the call's assistant's).
   */
  answer?: (callId: string, question: string) => Promise<string>;
  /** Rooms held at once; one more is refused with close code 1013. Default 50. */
  maxRooms?: number;
  /**
   * Rooms one caller address holds at once; one more is refused with 1013 'address_room_limit'.
   * Default 5. Callers without an address (see `clientAddress`) are held only to `maxRooms`.
   */
  maxRoomsPerAddress?: number;
  /** The caller's address (default: the socket's). Never a header such as X-Forwarded-For. */
  clientAddress?: ClientAddress;
  /** Ends a call with nothing said for this long. Default 30 s. */
  idleTimeoutMs?: number;
  /** Ends any call after this long. Default 10 minutes. */
  maxDurationMs?: number;
  /** Largest binary frame accepted (bytes); larger ones close the room with 1009. Default 64 KiB. */
  maxFrameBytes?: number;
  speaker?: Speaker;
  /** The room clock's time in ms (default `performance.now`). */
  now?: () => number;
  /**
   * Runs `tick` every `everyMs` while a room is open; returns the function that stops it. Default:
   * an unref'd `setInterval`. Tests pass a virtual clock (with `now`) and move time themselves.
   */
  schedule?: (tick: () => void, everyMs: number) => () => void;
  logger?: { warn(msg: string, fields?: Record<string, unknown>): void };
}

export interface RoomsStats {
  rooms: number;
  maxRooms: number;
  /** Samples of audio held across rooms (utterances being heard plus queued playback). */
  bufferedSamples: number;
}

export interface Rooms {
  /** Routes `GET /:callId` (WebSocket upgrade). */
  app: Hono;
  stats(): RoomsStats;
  /** True while a room for this call is open. */
  isOpen(callId: string): boolean;
  /** Ends every room (status ended, close 1001) and stops the clock. */
  close(): void;
}
