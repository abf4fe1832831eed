/**
 * A typed fake of Daily's call object (the surface the SDK uses), built on Node's EventEmitter,
 * with helpers that play the assistant's side: join, send audio, talk, end the call.
 *
 * It behaves like Daily where it matters to the SDK: one live call object at a time, join
 * before sending app messages, `left-meeting` on leave and destroy, `localAudio()` lagging
 * `setLocalAudio()` by a tick.
 * @module
 */
import { EventEmitter } from 'node:events';
import type {
  DailyCallOptions,
  DailyEvent,
  DailyEventObject,
  DailyFactoryOptions,
  DailyParticipant,
} from '@daily-co/daily-js';
import type { DailyCallLike, DailyFactoryLike } from '../rooms/daily.js';
import { createRoomParticipant, SPEAKER_NAME } from '../rooms/participant.js';

type Handler<T extends DailyEvent> = (event: DailyEventObject<T>) => void;

/** A deferred promise the test settles. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
  fail(error: unknown): void;
}

export function createGate(): Gate {
  let open!: () => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

let trackCounter = 0;

/** A stand-in MediaStreamTrack (jsdom and Node have none). */
export function createFakeTrack(kind: 'audio' | 'video'): MediaStreamTrack {
  const track = {
    kind,
    id: `fake-${kind}-${++trackCounter}`,
    label: `fake ${kind}`,
    enabled: true,
    muted: false,
    readyState: 'live' as MediaStreamTrackState,
    stop() {
      track.readyState = 'ended';
    },
  };
  // The SDK only reads kind and passes the track on; the rest of the interface is not needed.
  return track as unknown as MediaStreamTrack;
}

export type FakeMeetingState = 'new' | 'joining-meeting' | 'joined-meeting' | 'left-meeting' | 'error';

/** A method call the fake recorded. */
export interface RecordedCall {
  method: string;
  args: unknown[];
}

export class FakeDailyCall implements DailyCallLike {
  readonly callClientId: string;
  readonly factoryOptions: DailyFactoryOptions;
  meetingState: FakeMeetingState = 'new';
  destroyed = false;
  /** Every method call, in order. */
  readonly log: RecordedCall[] = [];
  /** App messages sent by the SDK, parsed when they are JSON. */
  readonly sentMessages: unknown[] = [];
  /** Subscriptions the SDK asked for, by session id. */
  readonly subscriptions = new Map<string, { audio: boolean; video: boolean }>();
  /** The options of the last join(). */
  joinOptions: DailyCallOptions | undefined;
  /** Set to hold join() until the test opens it (or fails it). */
  joinGate: Gate | undefined;
  /** Set to make join() reject. */
  joinError: Error | undefined;
  /** Set to make updateInputSettings() reject (noise cancellation failing). */
  inputSettingsError: Error | undefined;
  /** Set to make the remote audio-level observer fail to start. */
  observerError: Error | undefined;
  /** The processor type last applied. */
  audioProcessor: string | undefined;
  remoteObserverInterval: number | undefined;
  localObserverRunning = false;
  recording = false;
  userData: unknown;
  readonly local: DailyParticipant;
  #emitter = new EventEmitter();
  #localAudio = true;
  #localAudioTarget = true;
  #remote: DailyParticipant | undefined;

  constructor(options: DailyFactoryOptions, id: string) {
    this.factoryOptions = options;
    this.callClientId = id;
    this.local = createRoomParticipant({ session_id: `${id}-local`, local: true, user_name: 'You' });
    this.#emitter.setMaxListeners(100);
    if (options.startAudioOff) this.#localAudio = this.#localAudioTarget = false;
  }

  // --- Daily's call-object surface -------------------------------------------------------

  iframe(): HTMLIFrameElement | null {
    return null;
  }

  async join(options: DailyCallOptions): Promise<unknown> {
    this.#record('join', options);
    this.#alive('join');
    if (this.meetingState === 'joining-meeting' || this.meetingState === 'joined-meeting') {
      throw new Error('Already joining or joined.');
    }
    this.joinOptions = options;
    this.meetingState = 'joining-meeting';
    if (this.joinGate) await this.joinGate.promise;
    if (this.joinError) {
      this.meetingState = 'error';
      throw this.joinError;
    }
    if (this.destroyed || this.meetingState !== 'joining-meeting')
      throw new Error('The call was left while joining.');
    this.meetingState = 'joined-meeting';
    this.emit('joined-meeting', {
      action: 'joined-meeting',
      callClientId: this.callClientId,
      participants: { local: this.local },
    });
    return { local: this.local };
  }

  async leave(): Promise<void> {
    this.#record('leave');
    if (
      this.meetingState === 'left-meeting' ||
      this.meetingState === 'error' ||
      this.meetingState === 'new'
    ) {
      this.meetingState = this.meetingState === 'new' ? 'new' : this.meetingState;
      return;
    }
    this.meetingState = 'left-meeting';
    this.localObserverRunning = false;
    this.emit('left-meeting', { action: 'left-meeting', callClientId: this.callClientId });
  }

  async destroy(): Promise<void> {
    this.#record('destroy');
    if (this.destroyed) return;
    if (this.meetingState === 'joined-meeting' || this.meetingState === 'joining-meeting') await this.leave();
    this.destroyed = true;
  }

  on<T extends DailyEvent>(event: T, handler: Handler<T>): this {
    this.#emitter.on(event, handler);
    return this;
  }

  once<T extends DailyEvent>(event: T, handler: Handler<T>): this {
    this.#emitter.once(event, handler);
    return this;
  }

  off<T extends DailyEvent>(event: T, handler: Handler<T>): this {
    this.#emitter.off(event, handler);
    return this;
  }

  updateParticipant(
    sessionId: string,
    updates: { setSubscribedTracks: { audio: boolean; video: boolean } },
  ): this {
    this.#record('updateParticipant', sessionId, updates);
    this.subscriptions.set(sessionId, { ...updates.setSubscribedTracks });
    return this;
  }

  sendAppMessage(data: unknown, to?: string): this {
    this.#record('sendAppMessage', data, to);
    if (this.meetingState !== 'joined-meeting')
      throw new Error('sendAppMessage() only supported after join.');
    let parsed = data;
    if (typeof data === 'string') {
      try {
        parsed = JSON.parse(data) as unknown;
      } catch {
        parsed = data;
      }
    }
    this.sentMessages.push(parsed);
    return this;
  }

  async startRemoteParticipantsAudioLevelObserver(interval?: number): Promise<void> {
    this.#record('startRemoteParticipantsAudioLevelObserver', interval);
    if (this.observerError) throw this.observerError;
    this.remoteObserverInterval = interval;
  }

  async startLocalAudioLevelObserver(interval?: number): Promise<void> {
    this.#record('startLocalAudioLevelObserver', interval);
    this.localObserverRunning = true;
  }

  stopLocalAudioLevelObserver(): void {
    this.#record('stopLocalAudioLevelObserver');
    this.localObserverRunning = false;
  }

  isLocalAudioLevelObserverRunning(): boolean {
    return this.localObserverRunning;
  }

  getLocalAudioLevel(): number {
    return 0.5;
  }

  /** Like Daily, the new state shows in localAudio() only after the call machine answers. */
  setLocalAudio(enabled: boolean): this {
    this.#record('setLocalAudio', enabled);
    this.#localAudioTarget = enabled;
    setTimeout(() => (this.#localAudio = this.#localAudioTarget), 0);
    return this;
  }

  localAudio(): boolean {
    return this.#localAudio;
  }

  async updateInputSettings(settings: { audio: { processor: { type: 'noise-cancellation' | 'none' } } }) {
    this.#record('updateInputSettings', settings);
    if (this.inputSettingsError && settings.audio.processor.type !== 'none') throw this.inputSettingsError;
    this.audioProcessor = settings.audio.processor.type;
    return { inputSettings: settings };
  }

  async setInputDevicesAsync(devices: unknown): Promise<unknown> {
    this.#record('setInputDevicesAsync', devices);
    return {};
  }

  async setOutputDeviceAsync(device: { outputDeviceId: string }): Promise<unknown> {
    this.#record('setOutputDeviceAsync', device);
    return {};
  }

  startRecording(options?: unknown): void {
    this.#record('startRecording', options);
    this.recording = true;
  }

  stopRecording(): void {
    this.#record('stopRecording');
    this.recording = false;
  }

  startScreenShare(options?: unknown): void {
    this.#record('startScreenShare', options);
  }

  stopScreenShare(): void {
    this.#record('stopScreenShare');
  }

  async setUserData(data: unknown): Promise<unknown> {
    this.#record('setUserData', data);
    this.userData = data;
    return { userData: data };
  }

  async startCustomTrack(options: { trackName?: string }): Promise<string> {
    this.#record('startCustomTrack', options);
    return options.trackName ?? 'custom-1';
  }

  async stopCustomTrack(trackName: string): Promise<string> {
    this.#record('stopCustomTrack', trackName);
    return trackName;
  }

  // --- Test helpers: the assistant's side ------------------------------------------------

  /** Emits any Daily event with its typed payload. */
  emit<T extends DailyEvent>(event: T, payload: DailyEventObject<T>): void {
    this.#emitter.emit(event, payload);
  }

  /** How many listeners the SDK has on this call object (0 after a clean teardown). */
  listenerTotal(): number {
    return this.#emitter.eventNames().reduce((sum, name) => sum + this.#emitter.listenerCount(name), 0);
  }

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

  #record(method: string, ...args: unknown[]): void {
    this.log.push({ method, args });
  }

  #alive(method: string): void {
    if (this.destroyed) throw new Error(`${method}(): Use after destroy.`);
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
