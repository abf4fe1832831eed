/**
 * The Daily call-object surface of the fake (what the SDK calls), built on Node's EventEmitter.
 * It behaves like Daily where it matters to the SDK: one join at a time, app messages only after
 * joining, `left-meeting` on leave and destroy, `localAudio()` lagging `setLocalAudio()` by a tick.
 * The assistant's side (joining, talking, ending) is {@link FakeDailyCall} in fake-daily.ts.
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
import type { DailyCallLike } from '../rooms/daily.js';
import { createRoomParticipant } from '../rooms/participant.js';
import type { Gate } from './fake-media.js';

type Handler<T extends DailyEvent> = (event: DailyEventObject<T>) => void;

export type FakeMeetingState = 'new' | 'joining-meeting' | 'joined-meeting' | 'left-meeting' | 'error';

/** A method call the fake recorded. */
export interface RecordedCall {
  method: string;
  args: unknown[];
}

export class FakeDailyCallObject implements DailyCallLike {
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

  // --- For the test and the assistant's side ---------------------------------------------

  /** Emits any Daily event with its typed payload. */
  emit<T extends DailyEvent>(event: T, payload: DailyEventObject<T>): void {
    this.#emitter.emit(event, payload);
  }

  /** How many listeners the SDK has on this call object (0 after a clean teardown). */
  listenerTotal(): number {
    return this.#emitter.eventNames().reduce((sum, name) => sum + this.#emitter.listenerCount(name), 0);
  }

  #record(method: string, ...args: unknown[]): void {
    this.log.push({ method, args });
  }

  #alive(method: string): void {
    if (this.destroyed) throw new Error(`${method}(): Use after destroy.`);
  }
}
