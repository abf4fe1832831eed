/**
 * One call from `start()` to its end: the room's events turned into the SDK's events, the
 * assistant's audio elements, speaking detection, and the one teardown every ending goes through.
 *
 * Invariants (the official SDK's defects 2 and 3):
 * - every listener, element, timer and audio resource the call added is released by `teardown()`,
 *   however the call ended (stop, end, the server, a fatal error, a failed start);
 * - after `call-end` the only event is the final status message.
 * @module
 */
import { AudioPlayers } from './audio-player.js';
import type { CallHost, CallMedia, CallPhase } from './call-phase.js';
import { parseAppMessage, wireRoomEvents } from './call-room-events.js';
import { NO_CALL, serializeError, StartCancelledError, VoiceStateError } from './errors.js';
import { now } from './events.js';
import { SPEAKER_NAME } from './rooms/participant.js';
import type { Room, RoomEventMap } from './rooms/types.js';
import { SpeechDetector } from './speech-detector.js';
import type { VapiEventArgs, VapiEventNames } from './types.js';

/** Remote audio-level observer interval. */
export const REMOTE_AUDIO_LEVEL_INTERVAL_MS = 100;

/**
 * Runs one step of the teardown; a failure is warned about and the teardown goes on, so one
 * broken resource never keeps the others (or the room) alive.
 */
async function warnOnFailure(what: string, step: () => unknown): Promise<void> {
  try {
    await step();
  } catch (error) {
    console.warn(`[engage/voice] ${what} failed:`, error);
  }
}

export type { CallHost, CallMedia, CallPhase } from './call-phase.js';

export class LiveCall {
  /** Resolves when teardown has finished (room left and destroyed). */
  readonly finished: Promise<void>;

  #host: CallHost;
  #phase: CallPhase = { name: 'starting' };
  /** What the teardown releases, taken when the call ended: the room, and whether it was joined. */
  #leftBehind: { room: Room | null; joined: boolean } | null = null;
  #media: CallMedia = { videoRecording: false, videoEnabled: false };
  #abort = new AbortController();
  #unsubscribers: (() => void)[] = [];
  #players = new AudioPlayers();
  #speech: SpeechDetector;
  #callStartEmitted = false;
  #endedStatusSeen = false;
  #silenced = false;
  #muted: boolean;
  #audioProcessorRecovery = false;
  #resources: (() => void)[] = [];
  #teardown: Promise<void> | null = null;
  #resolveFinished!: () => void;

  constructor(host: CallHost, options: { startMuted: boolean }) {
    this.#host = host;
    this.#muted = options.startMuted;
    this.finished = new Promise((resolve) => (this.#resolveFinished = resolve));
    this.#speech = new SpeechDetector(
      {
        volume: (level) => this.emit('volume-level', level),
        speechStart: () => this.emit('speech-start'),
        speechEnd: () => this.emit('speech-end'),
      },
      host.timers,
    );
  }

  get phase(): CallPhase {
    return this.#phase;
  }

  get ended(): boolean {
    return this.#phase.name === 'ended';
  }

  /** The call's room once created, until the call ends. */
  get room(): Room | null {
    return 'room' in this.#phase ? this.#phase.room : null;
  }

  /** The room while it is joined (messages and microphone changes go to it), else null. */
  get joinedRoom(): Room | null {
    const phase = this.#phase;
    return phase.name === 'joined' || phase.name === 'live' ? phase.room : null;
  }

  /** Aborted when the start is cancelled or the call ends. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get muted(): boolean {
    return this.#muted;
  }

  get audioPlayer(): HTMLAudioElement | null {
    return this.#players.latest;
  }

  /** Emits unless the call has ended (the last guard for "nothing after call-end"). */
  emit<E extends VapiEventNames>(event: E, ...args: VapiEventArgs[E]): void {
    if (this.#silenced) return;
    this.#host.emit(event, ...args);
  }

  /** True when the app listens to the microphone level. */
  wantsLocalLevels(): boolean {
    return this.#host.listenerCount('local-volume-level') > 0;
  }

  /** Something to release at teardown (an AudioContext, a stream…). */
  hold(release: () => void): void {
    this.#resources.push(release);
  }

  /**
   * Mutes or unmutes. While connecting the choice is kept and applied when the room is joined
   * (rooms refuse microphone changes before joining).
   */
  setMuted(muted: boolean): void {
    if (this.ended) throw new VoiceStateError(NO_CALL);
    // Kept here, not read back from the room, so isMuted() reflects the change at once.
    this.#muted = muted;
    this.joinedRoom?.setLocalAudio(!muted);
  }

  applyVolume(volume: number): void {
    this.#players.setVolume(volume);
  }

  /**
   * starting → connecting: the room exists. Wires its events to the SDK's events; from here on the
   * teardown leaves and destroys it.
   */
  attach(room: Room, media: CallMedia): void {
    if (this.#phase.name !== 'starting') throw new Error(`A ${this.#phase.name} call cannot take a room.`);
    this.#phase = { name: 'connecting', room };
    this.#media = media;
    this.#unsubscribers.push(
      ...wireRoomEvents(room, media, {
        emit: (event, ...args) => this.emit(event, ...args),
        end: (reason) => void this.end(reason),
        nonFatalError: (event) => this.#onNonFatalError(event),
        trackStarted: (event) => void this.#onTrackStarted(event),
        appMessage: (data) => this.#onAppMessage(data),
        players: this.#players,
        speech: this.#speech,
      }),
    );
  }

  /**
   * connecting → joined: the room was joined. Applies a mute chosen while connecting (rooms refuse
   * microphone changes before joining). Ignored once the call ended (the join settled too late).
   */
  markJoined(options: { startedMuted: boolean }): void {
    const phase = this.#phase;
    if (phase.name !== 'connecting') return;
    this.#phase = { name: 'joined', room: phase.room };
    if (this.#muted !== options.startedMuted) phase.room.setLocalAudio(!this.#muted);
  }

  /** joined → live: the start routine finished. */
  markLive(): void {
    const phase = this.#phase;
    if (phase.name !== 'joined') throw new Error(`A ${phase.name} call cannot go live.`);
    this.#phase = { name: 'live', room: phase.room };
  }

  /**
   * Any phase → ended: the call accepts nothing more (a new start waits for its teardown instead of
   * being refused). The teardown, which calls this too, releases the room it had.
   */
  markEnded(): void {
    const phase = this.#phase;
    if (phase.name === 'ended') return;
    this.#leftBehind = {
      room: 'room' in phase ? phase.room : null,
      joined: phase.name === 'joined' || phase.name === 'live',
    };
    this.#phase = { name: 'ended' };
  }

  /**
   * Ends the call for any reason. While starting, it cancels the start (the start routine reports
   * the failure, then tears down); afterwards it tears down at once. Resolves when all is released.
   */
  end(reason: string, options: { byUser: boolean } = { byUser: false }): Promise<void> {
    const phase = this.#phase.name;
    if (phase === 'starting' || phase === 'connecting' || phase === 'joined') {
      if (!this.#abort.signal.aborted) this.#abort.abort(new StartCancelledError(reason, options));
      return this.finished;
    }
    return this.teardown();
  }

  /** Releases everything; emits call-end (and the ended status once) if the room was joined. */
  teardown(): Promise<void> {
    this.#teardown ??= this.#runTeardown();
    return this.#teardown;
  }

  async #runTeardown(): Promise<void> {
    this.markEnded();
    const { room, joined: wasJoined } = this.#leftBehind ?? { room: null, joined: false };
    if (!this.#abort.signal.aborted)
      this.#abort.abort(new StartCancelledError('The call ended.', { byUser: false }));
    this.#speech.dispose();
    for (const unsubscribe of this.#unsubscribers.splice(0)) unsubscribe();
    this.#players.clear();
    for (const release of this.#resources.splice(0)) void warnOnFailure('releasing a call resource', release);
    if (wasJoined && room) {
      if (this.#media.videoRecording)
        void warnOnFailure('stopping the recording', () => room.stopRecording());
      this.emit('call-end');
      if (!this.#endedStatusSeen) {
        this.#endedStatusSeen = true;
        this.emit('message', { type: 'status-update', status: 'ended', endedReason: 'customer-ended-call' });
      }
    }
    this.#silenced = true;
    if (room && wasJoined) await warnOnFailure('leaving the call room', () => room.leave());
    await warnOnFailure('destroying the call room', () => room?.destroy());
    this.#resolveFinished();
  }

  #onNonFatalError(event: RoomEventMap['nonfatal-error']): void {
    if (event.type === 'local-audio-level-observer-error') {
      this.emit('local-audio-level-observer-error', serializeError(event));
    }
    if (event.type === 'audio-processor-error') {
      // Noise cancellation failed: turn it off and make sure the microphone is on again. Once per
      // call: a room that reports the error again while or after it is turned off must not loop.
      if (this.#audioProcessorRecovery) return;
      this.#audioProcessorRecovery = true;
      const room = this.room;
      room
        ?.setAudioProcessor('none')
        .then(() => {
          if (!this.ended) room.setLocalAudio(true);
          this.#muted = false;
        })
        .catch((error: unknown) =>
          this.emit('error', {
            type: 'audio-processor-recovery-error',
            stage: 'audio-processor-recovery',
            error: serializeError(error),
            timestamp: now(),
          }),
        );
    }
  }

  #onAppMessage(data: unknown): void {
    if (data === 'listening') {
      if (!this.#callStartEmitted) {
        this.#callStartEmitted = true;
        this.emit('call-start');
      }
      return;
    }
    const parsed = parseAppMessage(data);
    if (!parsed) return;
    if (parsed.endedStatus) this.#endedStatusSeen = true;
    this.emit('message', parsed.message);
  }

  async #onTrackStarted({ participant, track }: RoomEventMap['track-started']): Promise<void> {
    if (!participant || participant.local || participant.user_name !== SPEAKER_NAME) return;
    if (track.kind === 'video') {
      this.emit('video', track);
      return;
    }
    if (track.kind !== 'audio') return;
    let player: HTMLAudioElement | null;
    try {
      player = await this.#players.play(participant.session_id, track, this.#host.volume(), () => this.ended);
    } catch (error) {
      // Usually the autoplay policy: the app can ask for a click and the assistant waits.
      if (!this.ended) {
        this.emit('error', { type: 'audio-start-failed', error: serializeError(error), timestamp: now() });
      }
      return;
    }
    if (!player) return;
    this.emit('audio', player);
    try {
      this.room?.sendAppMessage('playable');
    } catch (error) {
      // A track can start while the join is still settling; the assistant then starts on its own.
      console.warn("[engage/voice] could not send 'playable':", error);
    }
  }
}
