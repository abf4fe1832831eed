/**
 * A typed fake of Daily's call object (the surface the SDK uses), with helpers that play the
 * assistant's side: join, send audio, talk, end the call. The call-object surface itself is in
 * fake-daily-call-object.ts, the gate and track doubles in fake-media.ts.
 * @module
 */
import type { DailyFactoryOptions, DailyParticipant } from '@daily-co/daily-js';
import type { DailyFactoryLike } from '../rooms/daily.js';
import { createRoomParticipant, SPEAKER_NAME } from '../rooms/participant.js';
import { FakeDailyCallObject } from './fake-daily-call-object.js';
import { createFakeTrack } from './fake-media.js';

export { FakeDailyCallObject, type FakeMeetingState, type RecordedCall } from './fake-daily-call-object.js';
export { createFakeTrack, createGate, type Gate } from './fake-media.js';

/** The fake call object with the assistant's side: what a test does in the provider's place. */
export class FakeDailyCall extends FakeDailyCallObject {
  #remote: DailyParticipant | undefined;

  /** The assistant (or another participant) joins. */
  remoteJoins(userName = SPEAKER_NAME): DailyParticipant {
    const participant = createRoomParticipant({
      session_id: `${this.callClientId}-remote-${userName.replace(/\W+/g, '-')}`,
      user_name: userName,
    });
    this.#remote = participant;
    this.emit('participant-joined', {
      action: 'participant-joined',
      callClientId: this.callClientId,
      participant,
    });
    return participant;
  }

  /** A remote track starts playing (the assistant's audio by default). */
  startTrack(kind: 'audio' | 'video' = 'audio', participant = this.#remote): MediaStreamTrack {
    if (!participant) throw new Error('No remote participant: call remoteJoins() first.');
    const track = createFakeTrack(kind);
    this.emit('track-started', {
      action: 'track-started',
      callClientId: this.callClientId,
      participant,
      track,
      type: kind,
    });
    return track;
  }

  /** The assistant sends an app message (objects are sent as JSON, like the provider does). */
  appMessage(data: unknown): void {
    this.emit('app-message', {
      action: 'app-message',
      callClientId: this.callClientId,
      data: typeof data === 'string' ? data : JSON.stringify(data),
      fromId: this.#remote?.session_id ?? 'server',
    });
  }

  /** One sample of the remote audio-level observer. */
  audioLevel(level: number): void {
    const id = this.#remote?.session_id ?? 'remote';
    this.emit('remote-participants-audio-level', {
      action: 'remote-participants-audio-level',
      callClientId: this.callClientId,
      participantsAudioLevel: { [id]: level },
    });
  }

  /** The server ends the call: the assistant leaves, then the local participant is out. */
  serverEnds(): void {
    if (this.#remote) {
      this.emit('participant-left', {
        action: 'participant-left',
        callClientId: this.callClientId,
        participant: this.#remote,
      });
    }
    this.meetingState = 'left-meeting';
    this.emit('left-meeting', { action: 'left-meeting', callClientId: this.callClientId });
  }

  /** A fatal error (the meeting is over). */
  fatalError(message = 'connection lost'): void {
    this.meetingState = 'error';
    this.emit('error', { action: 'error', callClientId: this.callClientId, errorMsg: message });
  }

  /** A recoverable error such as 'audio-processor-error'. */
  nonFatalError(type: 'audio-processor-error' | 'local-audio-level-observer-error', message = type): void {
    this.emit('nonfatal-error', {
      action: 'nonfatal-error',
      callClientId: this.callClientId,
      type,
      errorMsg: message,
    });
  }

  /** Microphone permission denied. */
  permissionDenied(): void {
    this.emit('camera-error', {
      action: 'camera-error',
      callClientId: this.callClientId,
      errorMsg: { errorMsg: 'Permission denied', audioOk: false },
      error: { type: 'permissions', msg: 'Permission denied', blockedBy: 'user', blockedMedia: ['audio'] },
    });
  }
}

/** A fake of Daily's factory: `new Vapi(key, url, undefined, undefined, { dailyFactory: fake })`. */
export class FakeDaily implements DailyFactoryLike {
  /** Every call object created, oldest first. */
  readonly calls: FakeDailyCall[] = [];
  /** Set to make createCallObject() throw. */
  createError: Error | undefined;
  /** Runs on every new call object before the SDK sees it (to set gates and errors). */
  onCreate: ((call: FakeDailyCall) => void) | undefined;

  createCallObject(options: DailyFactoryOptions): FakeDailyCall {
    if (this.createError) throw this.createError;
    // Daily allows one live call object per page: a leaked one makes the next call fail.
    if (this.calls.some((call) => !call.destroyed)) {
      throw new Error('Duplicate DailyIframe instances are not allowed');
    }
    const call = new FakeDailyCall(options, `call-${this.calls.length + 1}`);
    this.calls.push(call);
    this.onCreate?.(call);
    return call;
  }

  /** The most recent call object. */
  get last(): FakeDailyCall {
    const call = this.calls.at(-1);
    if (!call) throw new Error('No call object was created.');
    return call;
  }
}
