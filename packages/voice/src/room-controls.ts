import type { DailyCall } from '@daily-co/daily-js';
import type { LiveCall } from './call.js';
import { NO_CALL, VoiceStateError } from './errors.js';
import { TypedEmitter } from './events.js';
import { RECORDING_LAYOUT } from './join-target.js';
import { boostMicrophone } from './microphone-gain.js';
import type { Room, RoomCustomTrack, RoomInputDevices } from './rooms/types.js';
import type { VapiEventArgs } from './types.js';
import {
  checkAudioLevelInterval,
  checkCustomTrack,
  checkGain,
  checkRecordingType,
  checkUserData,
  failValidation as fail,
} from './validation.js';

/**
 * The part of `Vapi`'s API that hands a request to the running call's room: devices, levels,
 * screen sharing, recording, user data and custom tracks. `Vapi` extends it and says which call
 * is running; starting, stopping and messaging stay there.
 */
export abstract class RoomControls extends TypedEmitter<VapiEventArgs> {
  /** The call running now (created, not necessarily joined), or null. */
  protected abstract currentCall(): LiveCall | null;

  /** Changes the microphone or camera. */
  async setInputDevicesAsync(
    options: RoomInputDevices & { audioSource?: MediaStreamTrack | false },
  ): Promise<void> {
    const { room } = this.#requireCall();
    const devices = { ...options };
    if (devices.audioSource === false) {
      console.warn('[engage/voice] audioSource: false breaks Chrome 140+; keeping the current microphone.');
      delete devices.audioSource;
    }
    await room.setInputDevices(devices as RoomInputDevices);
  }

  /** Changes the speaker used by the call room. */
  async setOutputDeviceAsync(options: { outputDeviceId: string }): Promise<void> {
    await this.currentCall()?.room?.setOutputDevice(options);
  }

  /** Amplifies the microphone by `gain` (e.g. 1.5). Released when the call ends. */
  async increaseMicLevel(gain: number): Promise<void> {
    const problem = checkGain(gain);
    if (problem) fail(problem);
    const { call, room } = this.#requireCall();
    const boosted = await boostMicrophone(gain);
    call.hold(boosted.release);
    if (boosted.track) await room.setInputDevices({ audioSource: boosted.track });
  }

  /** The <audio> element playing the assistant, or null before its audio arrives. */
  getAudioPlayer(): HTMLAudioElement | null {
    return this.currentCall()?.audioPlayer ?? null;
  }

  /** Daily's call object for this call, or null (no call, or a WebSocket room). */
  getDailyCallObject(): DailyCall | null {
    const room = this.currentCall()?.room;
    // The Daily room's vendor object is the call object Daily.createCallObject returned.
    return room?.kind === 'daily' ? (room.vendorObject() as DailyCall) : null;
  }

  /** The latest microphone level, 0..1 (0 without a call). */
  getLocalAudioLevel(): number {
    return this.currentCall()?.room?.getLocalAudioLevel() ?? 0;
  }

  /** Starts `local-volume-level` events every `interval` ms (at least 100). */
  async startLocalAudioLevelObserver(interval?: number): Promise<void> {
    const problem = checkAudioLevelInterval(interval);
    if (problem) fail(problem);
    await this.#requireCall().room.startLocalAudioLevelObserver(interval);
  }

  stopLocalAudioLevelObserver(): void {
    this.currentCall()?.room?.stopLocalAudioLevelObserver();
  }

  isLocalAudioLevelObserverRunning(): boolean {
    return this.currentCall()?.room?.isLocalAudioLevelObserverRunning() ?? false;
  }

  startScreenSharing(
    displayMediaOptions?: DisplayMediaStreamOptions,
    screenVideoSendSettings?: unknown,
  ): void {
    this.currentCall()?.room?.startScreenShare({ displayMediaOptions, screenVideoSendSettings });
  }

  stopScreenSharing(): void {
    this.currentCall()?.room?.stopScreenShare();
  }

  /** Starts (or retries) the recording; `recording-started` or `recording-error` follows. */
  startRecording(options: { type?: 'cloud' | 'raw-tracks' | 'local' } = {}): void {
    const problem = checkRecordingType(options?.type);
    if (problem) fail(problem);
    this.#requireCall().room.startRecording({
      ...RECORDING_LAYOUT,
      ...(options.type ? { type: options.type } : {}),
    });
  }

  stopRecording(): void {
    this.currentCall()?.room?.stopRecording();
  }

  /** Engage: attaches JSON user data (at most 4096 characters) to the local participant. */
  async setUserData(data: unknown): Promise<void> {
    const problem = checkUserData(data);
    if (problem) fail(problem);
    await this.#requireCall().room.setUserData(data);
  }

  /** Engage: publishes a custom track; resolves its name. */
  async startCustomTrack(options: RoomCustomTrack): Promise<string> {
    const problem = checkCustomTrack(options);
    if (problem) fail(problem);
    return this.#requireCall().room.startCustomTrack(options);
  }

  /** Engage: stops a custom track started with `startCustomTrack`. */
  async stopCustomTrack(trackName: string): Promise<string> {
    if (typeof trackName !== 'string' || !trackName) fail('stopCustomTrack() needs the track name.');
    return this.#requireCall().room.stopCustomTrack(trackName);
  }

  /** The running call and its room (created, not necessarily joined), or throws. */
  #requireCall(): { call: LiveCall; room: Room } {
    const call = this.currentCall();
    const room = call?.room;
    if (!call || !room) throw new VoiceStateError(NO_CALL);
    return { call, room };
  }
}
