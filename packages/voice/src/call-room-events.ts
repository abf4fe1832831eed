/**
 * A call room's events turned into the SDK's events, for `LiveCall.attach`: which
 * room event becomes which SDK event, and which the call itself handles.
 * @module
 */
import type { AudioPlayers } from './audio-player.js';
import type { CallMedia } from './call-phase.js';
import { messageOf, serializeError } from './errors.js';
import { now } from './events.js';
import type { Room, RoomEventMap, RoomEventName } from './rooms/types.js';
import type { SpeechDetector } from './speech-detector.js';
import type { VapiEventArgs, VapiEventNames } from './types.js';
// For the doc link only.

/** The parts of a call the room's events drive. */
export interface RoomEventTarget {
  emit<E extends VapiEventNames>(event: E, ...args: VapiEventArgs[E]): void;
  /** Ends the call (the room left or failed). */
  end(reason: string): void;
  nonFatalError(event: RoomEventMap['nonfatal-error']): void;
  trackStarted(event: RoomEventMap['track-started']): void;
  appMessage(data: unknown): void;
  players: AudioPlayers;
  speech: SpeechDetector;
}

/** Subscribes `call` to the room's events; returns what unsubscribes them. */
export function wireRoomEvents(room: Room, media: CallMedia, call: RoomEventTarget): (() => void)[] {
  const unsubscribers: (() => void)[] = [];
  const on = <E extends RoomEventName>(event: E, listener: (payload: RoomEventMap[E]) => void) => {
    unsubscribers.push(room.on(event, listener));
  };
  on('left-meeting', () => call.end('The call room was left before the call started.'));
  on('error', (event) => {
    call.emit('error', { type: 'daily-error', error: serializeError(event), timestamp: now() });
    call.end(`The call room failed: ${messageOf(event)}`);
  });
  on('camera-error', (event) =>
    call.emit('camera-error', { type: 'camera-error', error: serializeError(event), timestamp: now() }),
  );
  on('nonfatal-error', (event) => call.nonFatalError(event));
  on('participant-joined', ({ participant }) => {
    if (participant.local) return;
    room.subscribe(participant.session_id, {
      audio: true,
      video: media.videoRecording || media.videoEnabled,
    });
  });
  on('participant-updated', ({ participant }) => call.emit('daily-participant-updated', participant));
  on('participant-left', ({ participant }) => call.players.drop(participant.session_id));
  on('track-started', (event) => call.trackStarted(event));
  on('track-stopped', ({ participant, track }) => {
    if (!participant || track.kind !== 'audio') return;
    call.players.drop(participant.session_id, track);
  });
  on('app-message', ({ data }) => call.appMessage(data));
  on('remote-participants-audio-level', ({ participantsAudioLevel }) =>
    call.speech.update(participantsAudioLevel),
  );
  on('local-audio-level', ({ audioLevel }) => call.emit('local-volume-level', audioLevel));
  on('network-quality-change', (event) => call.emit('network-quality-change', event));
  on('network-connection', (event) => call.emit('network-connection', event));
  on('recording-started', (event) => call.emit('recording-started', event));
  on('recording-stopped', (event) => call.emit('recording-stopped', event));
  on('recording-error', (event) => call.emit('recording-error', event));
  return unsubscribers;
}

/**
 * An app message from the room other than 'listening', as the SDK emits it: JSON text parsed, and
 * whether it is the call's ended status. Null for text that is not JSON (warned about, not emitted).
 */
export function parseAppMessage(data: unknown): { message: unknown; endedStatus: boolean } | null {
  let message = data;
  if (typeof data === 'string') {
    try {
      message = JSON.parse(data) as unknown;
    } catch {
      console.warn('[engage/voice] ignored an app message that is not JSON:', data.slice(0, 200));
      return null;
    }
  }
  const endedStatus =
    typeof message === 'object' &&
    message !== null &&
    (message as { type?: unknown }).type === 'status-update' &&
    (message as { status?: unknown }).status === 'ended';
  return { message, endedStatus };
}
