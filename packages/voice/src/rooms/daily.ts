/**
 * The Daily room: the port over Daily's call object, for real calls.
 *
 * The only file that loads `@daily-co/daily-js`, and only on the first `start()` (dynamic import),
 * so pages that merely import the SDK never download Daily's code.
 * @module
 */
import type {
  DailyCall,
  DailyCallOptions,
  DailyEvent,
  DailyEventObject,
  DailyFactoryOptions,
} from '@daily-co/daily-js';
import type { Room, RoomEventMap, RoomEventName, RoomOptions } from './types.js';

/** The part of Daily's call object the adapter uses (the test fake implements exactly this). */
export interface DailyCallLike {
  iframe(): HTMLIFrameElement | null;
  join(options: DailyCallOptions): Promise<unknown>;
  leave(): Promise<void>;
  destroy(): Promise<void>;
  on<T extends DailyEvent>(event: T, handler: (event: DailyEventObject<T>) => void): unknown;
  off<T extends DailyEvent>(event: T, handler: (event: DailyEventObject<T>) => void): unknown;
  updateParticipant(
    sessionId: string,
    updates: { setSubscribedTracks: { audio: boolean; video: boolean } },
  ): unknown;
  sendAppMessage(data: unknown, to?: string): unknown;
  startRemoteParticipantsAudioLevelObserver(interval?: number): Promise<void>;
  startLocalAudioLevelObserver(interval?: number): Promise<void>;
  stopLocalAudioLevelObserver(): void;
  isLocalAudioLevelObserverRunning(): boolean;
  getLocalAudioLevel(): number;
  setLocalAudio(enabled: boolean): unknown;
  updateInputSettings(settings: {
    audio: { processor: { type: 'noise-cancellation' | 'none' } };
  }): Promise<unknown>;
  setInputDevicesAsync(devices: Parameters<DailyCall['setInputDevicesAsync']>[0]): Promise<unknown>;
  setOutputDeviceAsync(device: { outputDeviceId: string }): Promise<unknown>;
  startRecording(options?: Parameters<DailyCall['startRecording']>[0]): void;
  stopRecording(): void;
  startScreenShare(options?: Parameters<DailyCall['startScreenShare']>[0]): void;
  stopScreenShare(): void;
  setUserData(data: unknown): Promise<unknown>;
  startCustomTrack(options: Parameters<DailyCall['startCustomTrack']>[0]): Promise<string>;
  stopCustomTrack(trackName: string): Promise<string>;
}

/** Daily's factory, or the test fake's. */
export interface DailyFactoryLike {
  createCallObject(options: DailyFactoryOptions): DailyCallLike;
}

/** Loads Daily on first use; later calls reuse the module. */
let dailyModule: Promise<DailyFactoryLike> | undefined;

export function loadDaily(): Promise<DailyFactoryLike> {
  dailyModule ??= import('@daily-co/daily-js').then((mod) => {
    // ESM gives { default: Daily }; some CommonJS interop layers nest it once more.
    const outer = (mod as { default?: unknown }).default;
    const candidates: unknown[] = [outer, (outer as { default?: unknown } | undefined)?.default, mod];
    const factory = candidates.find(
      (c): c is DailyFactoryLike =>
        typeof (c as DailyFactoryLike | undefined)?.createCallObject === 'function',
    );
    if (!factory) throw new Error('@daily-co/daily-js did not export createCallObject.');
    return factory;
  });
  dailyModule.catch(() => {
    // A failed load (offline, blocked by CSP) may succeed on the next start().
    dailyModule = undefined;
  });
  return dailyModule;
}

/** Creates the Daily room for real calls (loads Daily on the first call). */
export async function createRoom(options: RoomOptions): Promise<Room> {
  return createDailyRoom(options, await loadDaily());
}

/** The room over a given factory: Daily's, or a fake in tests. */
export function createDailyRoom(options: RoomOptions, factory: DailyFactoryLike): Room {
  const call = factory.createCallObject({
    audioSource: options.audioSource,
    videoSource: options.videoSource,
    ...(options.startAudioOff !== undefined ? { startAudioOff: options.startAudioOff } : {}),
    dailyConfig: options.dailyConfig ?? {},
  });
  // Call objects have no UI; older Daily versions still created a frame.
  call.iframe()?.style.setProperty('display', 'none');
  return new DailyRoom(call);
}

class DailyRoom implements Room {
  readonly kind = 'daily' as const;
  #call: DailyCallLike;
  #destroyed = false;
  #joined = false;

  constructor(call: DailyCallLike) {
    this.#call = call;
  }

  async join(options: Parameters<Room['join']>[0]): Promise<void> {
    await this.#call.join({
      url: options.url,
      // Daily rejects a `token` key that is present but undefined.
      ...(options.token ? { token: options.token } : {}),
      subscribeToTracksAutomatically: options.subscribeToTracksAutomatically,
    });
    this.#joined = true;
  }

  async leave(): Promise<void> {
    if (this.#destroyed || !this.#joined) return;
    this.#joined = false;
    await this.#call.leave();
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#joined = false;
    await this.#call.destroy();
  }

  on<E extends RoomEventName>(event: E, listener: (payload: RoomEventMap[E]) => void): () => void {
    // Daily's payloads carry the fields of RoomEventMap (its `action` and extras ride along).
    const handler = listener as unknown as (payload: DailyEventObject<E>) => void;
    this.#call.on(event, handler);
    return () => {
      this.#call.off(event, handler);
    };
  }

  subscribe(sessionId: string, media: { audio: boolean; video: boolean }): void {
    this.#call.updateParticipant(sessionId, {
      setSubscribedTracks: { audio: media.audio, video: media.video },
    });
  }

  sendAppMessage(data: string): void {
    this.#call.sendAppMessage(data, '*');
  }

  startRemoteAudioLevelObserver(intervalMs: number): Promise<void> {
    return this.#call.startRemoteParticipantsAudioLevelObserver(intervalMs);
  }

  startLocalAudioLevelObserver(intervalMs?: number): Promise<void> {
    return this.#call.startLocalAudioLevelObserver(intervalMs);
  }

  stopLocalAudioLevelObserver(): void {
    this.#call.stopLocalAudioLevelObserver();
  }

  isLocalAudioLevelObserverRunning(): boolean {
    return this.#call.isLocalAudioLevelObserverRunning();
  }

  getLocalAudioLevel(): number {
    return this.#call.getLocalAudioLevel();
  }

  setLocalAudio(enabled: boolean): void {
    // Never forceDiscardTrack: it breaks the microphone in Chrome 140+.
    this.#call.setLocalAudio(enabled);
  }

  async setAudioProcessor(type: 'noise-cancellation' | 'none'): Promise<void> {
    await this.#call.updateInputSettings({ audio: { processor: { type } } });
  }

  async setInputDevices(devices: Parameters<Room['setInputDevices']>[0]): Promise<void> {
    await this.#call.setInputDevicesAsync(devices);
  }

  async setOutputDevice(device: { outputDeviceId: string }): Promise<void> {
    await this.#call.setOutputDeviceAsync(device);
  }

  startRecording(options: Parameters<Room['startRecording']>[0]): void {
    this.#call.startRecording(options);
  }

  stopRecording(): void {
    this.#call.stopRecording();
  }

  startScreenShare(options?: Parameters<Room['startScreenShare']>[0]): void {
    this.#call.startScreenShare(options as Parameters<DailyCall['startScreenShare']>[0]);
  }

  stopScreenShare(): void {
    this.#call.stopScreenShare();
  }

  async setUserData(data: unknown): Promise<void> {
    await this.#call.setUserData(data);
  }

  startCustomTrack(options: Parameters<Room['startCustomTrack']>[0]): Promise<string> {
    return this.#call.startCustomTrack(options as Parameters<DailyCall['startCustomTrack']>[0]);
  }

  stopCustomTrack(trackName: string): Promise<string> {
    return this.#call.stopCustomTrack(trackName);
  }

  vendorObject(): unknown {
    return this.#call;
  }
}
