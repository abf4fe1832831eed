/**
 * The call-room port: everything the start routine and a live call need from a call room.
 *
 * Two adapters implement it: `daily.ts` (Daily's call object, for real calls at an https
 * `webCallUrl`) and `websocket.ts` (the emulator's local rooms at a ws/wss URL, for offline use).
 * The SDK never talks to a vendor object directly; it talks to a {@link Room}.
 *
 * Payloads keep Daily's field names (`session_id`, `user_name`, `participantsAudioLevel`…) because
 * the public events pass some of them through unchanged (`daily-participant-updated`), and the
 * provider's documentation describes them that way.
 *
 * @module
 */
import type {
  DailyEventObjectNetworkConnectionEvent,
  DailyEventObjectNetworkQualityEvent,
  DailyEventObjectRecordingError,
  DailyEventObjectRecordingStarted,
  DailyEventObjectRecordingStopped,
  DailyParticipant,
} from '@daily-co/daily-js';

/**
 * A participant as a room reports it: Daily's participant object. Rooms other than Daily build
 * one with `createRoomParticipant()` (rooms/participant.ts). The SDK reads `session_id`, `local`
 * and `user_name`; the rest is passed through to `daily-participant-updated` listeners.
 */
export type RoomParticipant = DailyParticipant;

/**
 * The browser APIs the WebSocket room opens itself, injectable as auth-js injects `fetch` and
 * `storage` (tests, unusual hosts). Each defaults to the browser's own, read only when a call
 * joins. Daily opens its media itself and ignores them.
 */
export interface RoomBrowserApis {
  /** Default: `new WebSocket(url)`. */
  createWebSocket?: (url: string) => WebSocket;
  /** Default: `new AudioContext(options)`. */
  createAudioContext?: (options: AudioContextOptions) => AudioContext;
  /** Default: `navigator.mediaDevices.getUserMedia`. */
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  /** Default: `new AudioWorkletNode(context, name, options)` (the microphone capture). */
  createAudioWorkletNode?: (
    context: BaseAudioContext,
    name: string,
    options: AudioWorkletNodeOptions,
  ) => AudioWorkletNode;
  /** Default: `new MediaStream(tracks)` (for a microphone track the app passed in). */
  createMediaStream?: (tracks: MediaStreamTrack[]) => MediaStream;
  /**
   * Where to load the microphone's capture worklet from (a file holding `CAPTURE_WORKLET_SOURCE`).
   * Default: a Blob URL of that source, which a page's CSP must allow (`script-src blob:`); a page
   * that allows only a server's origin (a site embedding Engage's widget) loads it from there.
   */
  captureWorkletUrl?: string;
}

/** Options a room is created with (before joining). */
export interface RoomOptions extends RoomBrowserApis {
  /** Microphone: true for the default device, a device id, or a track. */
  audioSource: boolean | string | MediaStreamTrack;
  /** Camera: on only when the call records video. */
  videoSource: boolean;
  /** Join with the microphone muted. */
  startAudioOff?: boolean;
  /** Daily-only settings (`avoidEval`, `alwaysIncludeMicInPermissionPrompt`); other rooms ignore them. */
  dailyConfig?: { avoidEval?: boolean; alwaysIncludeMicInPermissionPrompt?: boolean };
}

/** How to join: the room URL, an optional meeting token, and never automatic subscription. */
export interface RoomJoinOptions {
  url: string;
  token?: string;
  /** Always false: the SDK subscribes to the assistant's tracks itself when it joins. */
  subscribeToTracksAutomatically: false;
}

/** Which of a remote participant's tracks to receive. */
export interface RoomSubscription {
  audio: boolean;
  video: boolean;
}

/** Recording layout, with the recording type */
export interface RoomRecordingOptions {
  width?: number;
  height?: number;
  backgroundColor?: string;
  layout?: { preset: 'default' };
  type?: 'cloud' | 'raw-tracks' | 'local';
}

/** Input device changes; `audioSource` may be a processed track (see `increaseMicLevel`). */
export interface RoomInputDevices {
  audioDeviceId?: string | null;
  audioSource?: MediaStreamTrack;
  videoDeviceId?: string | null;
  videoSource?: MediaStreamTrack | false;
}

/** A custom track published next to the microphone and camera. */
export interface RoomCustomTrack {
  track: MediaStreamTrack;
  trackName?: string;
  mode?: 'music' | 'speech' | Record<string, unknown>;
}

/** Events every room emits. */
export interface RoomEventMap {
  'participant-joined': { participant: RoomParticipant };
  'participant-updated': { participant: RoomParticipant };
  'participant-left': { participant: RoomParticipant };
  /** `participant` is null when the participant already left. */
  'track-started': { participant: RoomParticipant | null; track: MediaStreamTrack };
  'track-stopped': { participant: RoomParticipant | null; track: MediaStreamTrack };
  /** `data` is what the other side sent: usually a JSON string, or the plain string 'listening'. */
  'app-message': { data: unknown; fromId: string };
  /** The local participant left the room, whoever ended the call. */
  'left-meeting': Record<string, never>;
  /** A fatal error: the room is unusable afterwards. */
  error: { errorMsg: string; error?: unknown };
  /** A recoverable error, e.g. `type: 'audio-processor-error'`. */
  'nonfatal-error': { type: string; errorMsg: string; details?: unknown };
  /** Camera or microphone trouble; permission denied has `error.type === 'permissions'`. */
  'camera-error': { errorMsg: unknown; error: { type: string; [detail: string]: unknown } };
  /** Levels 0..1 by session id, every observer interval. */
  'remote-participants-audio-level': { participantsAudioLevel: Record<string, number> };
  'local-audio-level': { audioLevel: number };
  'network-quality-change': DailyEventObjectNetworkQualityEvent;
  'network-connection': DailyEventObjectNetworkConnectionEvent;
  'recording-started': DailyEventObjectRecordingStarted;
  'recording-stopped': DailyEventObjectRecordingStopped;
  'recording-error': DailyEventObjectRecordingError;
}

export type RoomEventName = keyof RoomEventMap;

/** A call room. Methods that need a joined room reject (or throw) with a clear error otherwise. */
export interface Room {
  /** Which adapter this is; `getDailyCallObject()` only answers for 'daily'. */
  readonly kind: 'daily' | 'websocket';
  /** Joins; rejects when the room refuses (expired, full, no such room…). */
  join(options: RoomJoinOptions): Promise<void>;
  /** Leaves; resolves at once when not joined. Does not emit 'left-meeting' to listeners already removed. */
  leave(): Promise<void>;
  /** Releases everything the room holds (media, sockets, the vendor object). Idempotent. */
  destroy(): Promise<void>;
  /** Adds a listener; the returned function removes it. */
  on<E extends RoomEventName>(event: E, listener: (payload: RoomEventMap[E]) => void): () => void;
  /** Receive (or stop receiving) a remote participant's tracks. */
  subscribe(sessionId: string, media: RoomSubscription): void;
  /** Sends an app message to everyone in the room (the assistant). */
  sendAppMessage(data: string): void;
  /** Starts 'remote-participants-audio-level' every `intervalMs`. */
  startRemoteAudioLevelObserver(intervalMs: number): Promise<void>;
  /** Starts 'local-audio-level' every `intervalMs` (the room's default when omitted). */
  startLocalAudioLevelObserver(intervalMs?: number): Promise<void>;
  stopLocalAudioLevelObserver(): void;
  isLocalAudioLevelObserverRunning(): boolean;
  /** The latest microphone level, 0..1. */
  getLocalAudioLevel(): number;
  /** Turns the microphone on or off (never discarding the track). */
  setLocalAudio(enabled: boolean): void;
  /** Noise cancellation on ('noise-cancellation') or off ('none'). */
  setAudioProcessor(type: 'noise-cancellation' | 'none'): Promise<void>;
  setInputDevices(devices: RoomInputDevices): Promise<void>;
  setOutputDevice(device: { outputDeviceId: string }): Promise<void>;
  startRecording(options: RoomRecordingOptions): void;
  stopRecording(): void;
  startScreenShare(options?: {
    displayMediaOptions?: DisplayMediaStreamOptions;
    screenVideoSendSettings?: unknown;
  }): void;
  stopScreenShare(): void;
  setUserData(data: unknown): Promise<void>;
  startCustomTrack(options: RoomCustomTrack): Promise<string>;
  stopCustomTrack(trackName: string): Promise<string>;
  /** The vendor object behind the room (Daily's call object), or null. */
  vendorObject(): unknown;
}

/** Creates a room (not yet joined). May load code on first use. */
export type CreateRoom = (options: RoomOptions) => Room | Promise<Room>;

/** What a room module (`rooms/daily.ts`, `rooms/websocket.ts`) exports. */
export interface RoomModule {
  createRoom: CreateRoom;
}
