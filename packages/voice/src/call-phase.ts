/**
 * The shapes around a `LiveCall`: what it needs from the client (its host), what media the call
 * carries, and the phases it moves through.
 * @module
 */
import type { Room } from './rooms/types.js';
import type { Timers } from './speech-detector.js';
import type { VapiEventArgs, VapiEventNames } from './types.js';
// For the doc link only.

export interface CallHost {
  emit<E extends VapiEventNames>(event: E, ...args: VapiEventArgs[E]): void;
  listenerCount(event: VapiEventNames): number;
  /** The playback volume the app chose (survives calls), or null for the element's default. */
  volume(): number | null;
  timers?: Timers;
}

export interface CallMedia {
  /** Recording video: subscribe to video and stop the recording at the end. */
  videoRecording: boolean;
  /** A video voice provider (tavus): subscribe to video. */
  videoEnabled: boolean;
}

/**
 * Where a call is. Only `LiveCall` moves it, through its transitions (`attach`, `markJoined`,
 * `markLive`, `markEnded`); every phase after the room exists carries it.
 * - starting: creating the web call or the room;
 * - connecting: the room exists, not yet joined;
 * - joined: joined, the start routine still setting up;
 * - live: started (`call-start-success` sent);
 * - ended: over; the teardown releases what is left.
 */
export type CallPhase =
  | { readonly name: 'starting' }
  | { readonly name: 'connecting'; readonly room: Room }
  | { readonly name: 'joined'; readonly room: Room }
  | { readonly name: 'live'; readonly room: Room }
  | { readonly name: 'ended' };
