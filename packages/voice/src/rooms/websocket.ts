/**
 * The WebSocket room: the call-room port over the provider's `vapi.websocket` protocol, used for
 * calls whose URL is ws: or wss: (the emulator's local rooms, and WebSocket calls created by the
 * server with the private key). Binary frames carry 16-bit little-endian PCM both ways; text frames
 * carry JSON control and app messages.
 *
 * This file is the room's lifecycle (join, events, leave); opening the socket is
 * `websocket-connect.ts`, the audio `websocket-media.ts`, the protocol's rules `websocket-protocol.ts` (pure). Browser APIs come from
 * the room options (default: the browser's own) and are touched only in `join()`.
 * @module
 */
import { VoiceStateError } from '../errors.js';
import { createRoomParticipant, SPEAKER_NAME } from './participant.js';
import { RoomListeners } from './room-listeners.js';
import type {
  Room,
  RoomEventMap,
  RoomEventName,
  RoomInputDevices,
  RoomJoinOptions,
  RoomOptions,
  RoomParticipant,
  RoomSubscription,
} from './types.js';
import { openSocket } from './websocket-connect.js';
import { browserApis, CallAudio, type BrowserApis } from './websocket-media.js';
import {
  ASSISTANT_SESSION_ID,
  closeError,
  HANGUP_MESSAGE,
  outgoingMessage,
  parseIncoming,
  SOCKET_CONNECTING,
  SOCKET_OPEN,
  type SocketClose,
} from './websocket-protocol.js';
import { isWebSocketUrl } from './websocket-url.js';

/** Microphone frames are skipped while the socket cannot keep up, instead of queueing without bound. */
const MAX_SEND_BACKLOG = 256 * 1024;
/** Frames (of any length) kept while waiting for the SDK to subscribe: about 2 s of 20 ms frames. */
const MAX_HELD_FRAMES = 100;

class WebSocketRoom implements Room {
  readonly kind = 'websocket' as const;
  readonly #options: RoomOptions;
  readonly #apis: BrowserApis;
  readonly #audio: CallAudio;
  readonly #events = new RoomListeners();
  #ws: WebSocket | null = null;
  #assistant: RoomParticipant | null = null;
  #remoteTimer: ReturnType<typeof setInterval> | null = null;
  #localTimer: ReturnType<typeof setInterval> | null = null;
  #joined = false;
  #closed = false;
  /** Fails a join still connecting when the room is left or destroyed meanwhile. */
  #abortConnect: ((error: Error) => void) | null = null;
  /** Audio received before the SDK subscribed (its <audio> element not yet playing): bounded. */
  #held: ArrayBuffer[] | null = [];
  /** Whether the SDK was told the call started ('listening'). */
  #listening = false;

  constructor(options: RoomOptions) {
    this.#options = options;
    this.#apis = browserApis(options);
    this.#audio = new CallAudio(
      this.#apis,
      {
        frame: (pcm) => {
          const ws = this.#ws;
          if (ws?.readyState === SOCKET_OPEN && ws.bufferedAmount < MAX_SEND_BACKLOG) ws.send(pcm);
        },
        microphoneError: (event) => this.#events.emit('camera-error', event),
      },
      { enabled: !options.startAudioOff },
    );
  }

  on<E extends RoomEventName>(event: E, listener: (payload: RoomEventMap[E]) => void): () => void {
    return this.#events.on(event, listener);
  }

  async join({ url }: RoomJoinOptions): Promise<void> {
    if (this.#closed) throw new Error('This call room was destroyed.');
    if (this.#ws) throw new Error('This call room is already joined.');
    if (!isWebSocketUrl(url)) throw new Error(`A WebSocket call needs a ws: or wss: URL, got ${url}.`);
    try {
      await this.#audio.start(this.#options.audioSource);
      await this.#connect(url);
    } catch (error) {
      this.#release();
      throw error;
    }
    this.#joined = true;
    // After join() resolves, as Daily does: the SDK subscribes when the assistant appears.
    setTimeout(() => {
      if (!this.#joined) return;
      this.#assistant = createRoomParticipant({
        session_id: ASSISTANT_SESSION_ID,
        user_name: SPEAKER_NAME,
      });
      this.#events.emit('participant-joined', { participant: this.#assistant });
    }, 0);
  }

  #connect(url: string): Promise<void> {
    const socket = openSocket(this.#apis.createWebSocket, url, {
      message: (data) => this.#onMessage(data),
      closed: (close, opened) => {
        if (this.#ws !== socket.ws) return;
        this.#ws = null;
        if (opened) this.#onRemoteClose(close);
      },
    });
    this.#ws = socket.ws;
    this.#abortConnect = socket.abort;
    return socket.opened.finally(() => {
      if (this.#abortConnect === socket.abort) this.#abortConnect = null;
    });
  }

  #onMessage(data: ArrayBuffer | string): void {
    const frame = parseIncoming(data);
    // The SDK (as with Daily) treats the plain string 'listening' as the start of the call. The
    // emulator sends {type:'listening'}; a provider that does not is taken to be listening once
    // anything arrives from it.
    if (!this.#listening) {
      this.#listening = true;
      this.#events.emit('app-message', { data: 'listening', fromId: ASSISTANT_SESSION_ID });
    }
    if (frame.kind === 'listening') return;
    if (frame.kind === 'message')
      this.#events.emit('app-message', { data: frame.data, fromId: ASSISTANT_SESSION_ID });
    else if (this.#held) {
      // Played once the SDK listens, so the start of the greeting is not lost.
      this.#held.push(frame.data);
      if (this.#held.length > MAX_HELD_FRAMES) this.#held.shift();
    } else this.#audio.play(frame.data);
  }

  #onRemoteClose(close: SocketClose): void {
    const wasJoined = this.#joined;
    this.#release();
    if (!wasJoined) return;
    const error = closeError(close);
    if (error) this.#events.emit('error', error);
    if (this.#assistant) this.#events.emit('participant-left', { participant: this.#assistant });
    this.#events.emit('left-meeting', {});
  }

  subscribe(sessionId: string, media: RoomSubscription): void {
    if (sessionId !== ASSISTANT_SESSION_ID || !media.audio || !this.#assistant) return;
    const track = this.#audio.playbackTrack;
    if (!track) return;
    this.#events.emit('track-started', { participant: this.#assistant, track });
    const held = this.#held ?? [];
    this.#held = null;
    for (const frame of held) this.#audio.play(frame);
  }

  sendAppMessage(data: string): void {
    const ws = this.#ws;
    if (ws?.readyState !== SOCKET_OPEN) return;
    const text = outgoingMessage(data);
    if (text !== null) ws.send(text);
  }

  async startRemoteAudioLevelObserver(intervalMs: number): Promise<void> {
    if (this.#remoteTimer) clearInterval(this.#remoteTimer);
    this.#remoteTimer = setInterval(() => {
      const level = this.#audio.remoteLevel();
      if (level === null) return;
      this.#events.emit('remote-participants-audio-level', {
        participantsAudioLevel: { [ASSISTANT_SESSION_ID]: level },
      });
    }, intervalMs);
  }

  async startLocalAudioLevelObserver(intervalMs = 100): Promise<void> {
    if (this.#localTimer) clearInterval(this.#localTimer);
    this.#localTimer = setInterval(
      () => this.#events.emit('local-audio-level', { audioLevel: this.#audio.localLevel }),
      intervalMs,
    );
  }

  stopLocalAudioLevelObserver(): void {
    if (this.#localTimer) clearInterval(this.#localTimer);
    this.#localTimer = null;
  }

  isLocalAudioLevelObserverRunning(): boolean {
    return this.#localTimer !== null;
  }

  getLocalAudioLevel(): number {
    return this.#audio.localLevel;
  }

  setLocalAudio(enabled: boolean): void {
    // A disabled track feeds silence, so the stream keeps its timing and the assistant hears nothing.
    this.#audio.setEnabled(enabled);
  }

  async setAudioProcessor(type: 'noise-cancellation' | 'none'): Promise<void> {
    // A refusal rejects this call instead of raising 'audio-processor-error': the caller asked, so
    // the caller handles it, and the SDK's recovery (which calls this with 'none') cannot loop.
    await this.#audio.setNoiseSuppression(type === 'noise-cancellation');
  }

  async setInputDevices(devices: RoomInputDevices): Promise<void> {
    if (devices.audioSource === undefined && devices.audioDeviceId === undefined) return;
    if (!this.#audio.started || this.#closed)
      throw new VoiceStateError('Join the call before changing devices.');
    await this.#audio.changeMicrophone(devices.audioSource ?? devices.audioDeviceId ?? undefined);
  }

  async setOutputDevice(): Promise<void> {
    // Playback goes through the SDK's <audio> element, which routes to the chosen output itself.
  }

  startRecording(): void {
    this.#events.emit('recording-error', {
      action: 'recording-error',
      errorMsg: 'Recording is not available in WebSocket calls.',
    } as RoomEventMap['recording-error']);
  }

  stopRecording(): void {}

  startScreenShare(): void {
    this.#events.emit('nonfatal-error', {
      type: 'screen-share-error',
      errorMsg: 'Screen sharing is not available in WebSocket calls.',
    });
  }

  stopScreenShare(): void {}

  async setUserData(): Promise<void> {}

  async startCustomTrack(): Promise<string> {
    throw new Error('Custom tracks are not available in WebSocket calls.');
  }

  async stopCustomTrack(): Promise<string> {
    throw new Error('Custom tracks are not available in WebSocket calls.');
  }

  vendorObject(): unknown {
    return null;
  }

  async leave(): Promise<void> {
    const ws = this.#ws;
    const wasJoined = this.#joined;
    if (ws?.readyState === SOCKET_OPEN) ws.send(HANGUP_MESSAGE);
    this.#release();
    if (wasJoined) this.#events.emit('left-meeting', {});
  }

  async destroy(): Promise<void> {
    this.#closed = true;
    this.#release();
    this.#events.clear();
  }

  /** Closes the socket, stops the level timers, and releases the audio. Idempotent. */
  #release(): void {
    this.#joined = false;
    this.#held = [];
    const abortConnect = this.#abortConnect;
    this.#abortConnect = null;
    abortConnect?.(new Error('The call was left while it was connecting.'));
    const ws = this.#ws;
    this.#ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
      if (ws.readyState === SOCKET_OPEN || ws.readyState === SOCKET_CONNECTING) ws.close(1000, 'left');
    }
    if (this.#remoteTimer) clearInterval(this.#remoteTimer);
    if (this.#localTimer) clearInterval(this.#localTimer);
    this.#remoteTimer = this.#localTimer = null;
    const playbackTrack = this.#audio.playbackTrack;
    if (playbackTrack && this.#assistant)
      this.#events.emit('track-stopped', { participant: this.#assistant, track: playbackTrack });
    this.#audio.release();
  }
}

/** Creates a WebSocket room (not yet joined). */
export function createRoom(options: RoomOptions): Room {
  return new WebSocketRoom(options);
}
