/**
 * The WebSocket room: the call-room port over the provider's `vapi.websocket` protocol, used for
 * calls whose URL is ws: or wss: (the emulator's local rooms, and WebSocket calls created by the
 * server with the private key). Binary frames carry 16-bit little-endian PCM both ways; text frames
 * carry JSON control and app messages.
 *
 * Microphone → AudioWorklet (mono, resampled to the call's rate, 20 ms frames) → socket.
 * Socket → jitter-buffered AudioBufferSourceNodes → a MediaStream track, which the SDK plays in its
 * <audio> element like Daily's track. Levels come from the capture frames (local) and from the
 * playback schedule (remote), so speaking detection and volume events work as with Daily.
 *
 * Browser globals are touched only in `join()`.
 * @module
 */
import { createRoomParticipant, SPEAKER_NAME } from './participant.js';
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
import {
  CAPTURE_PROCESSOR,
  CAPTURE_WORKLET_SOURCE,
  levelOf,
  pcmToFloat,
  PlaybackSchedule,
} from './websocket-audio.js';

/** The provider's default for WebSocket calls, and the emulator's rooms' rate. */
export const CALL_SAMPLE_RATE = 16_000;
const FRAME_MS = 20;
const CONNECT_TIMEOUT_MS = 15_000;
/** Microphone frames are skipped while the socket cannot keep up, instead of queueing without bound. */
const MAX_SEND_BACKLOG = 256 * 1024;
/** Frames (of any length) kept while waiting for the SDK to subscribe: about 2 s of 20 ms frames. */
const MAX_HELD_FRAMES = 100;
const ASSISTANT_SESSION_ID = 'vapi-speaker';

type Listener = (payload: never) => void;

/** The reason of a room's close frame, `{error, message}` JSON, as a sentence. */
function closeMessage(event: CloseEvent): string {
  try {
    const parsed = JSON.parse(event.reason) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: use the raw reason below.
  }
  return event.reason || `The call connection closed (code ${event.code}).`;
}

function cameraErrorType(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'permissions';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'not-found';
  if (name === 'NotReadableError') return 'cam-mic-in-use';
  return 'unknown';
}

class WebSocketRoom implements Room {
  readonly kind = 'websocket' as const;
  readonly #options: RoomOptions;
  readonly #listeners = new Map<RoomEventName, Set<Listener>>();
  readonly #schedule = new PlaybackSchedule();
  readonly #sources = new Set<AudioBufferSourceNode>();
  #ws: WebSocket | null = null;
  #ctx: AudioContext | null = null;
  #micStream: MediaStream | null = null;
  /** True when the microphone track is ours to stop (not one the app passed in). */
  #ownsMic = false;
  #micSource: MediaStreamAudioSourceNode | null = null;
  #capture: AudioWorkletNode | null = null;
  #playbackGain: GainNode | null = null;
  #playbackOut: MediaStreamAudioDestinationNode | null = null;
  #assistant: RoomParticipant | null = null;
  #audioEnabled = true;
  #localLevel = 0;
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
    this.#audioEnabled = !options.startAudioOff;
  }

  on<E extends RoomEventName>(event: E, listener: (payload: RoomEventMap[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  #emit<E extends RoomEventName>(event: E, payload: RoomEventMap[E]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      try {
        (listener as (p: RoomEventMap[E]) => void)(payload);
      } catch (error) {
        console.warn(`[engage/voice] a '${event}' listener threw:`, error);
      }
    }
  }

  async join({ url }: RoomJoinOptions): Promise<void> {
    if (this.#closed) throw new Error('This call room was destroyed.');
    if (this.#ws) throw new Error('This call room is already joined.');
    if (!/^wss?:\/\//i.test(url)) throw new Error(`A WebSocket call needs a ws: or wss: URL, got ${url}.`);
    try {
      await this.#startAudio();
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
      this.#emit('participant-joined', { participant: this.#assistant });
    }, 0);
  }

  async #startAudio(): Promise<void> {
    const ctx = new AudioContext({ latencyHint: 'interactive' });
    this.#ctx = ctx;
    // Started from a click in the page; resume() only matters when the autoplay policy held it.
    void ctx.resume().catch(() => undefined);

    this.#playbackGain = ctx.createGain();
    this.#playbackOut = ctx.createMediaStreamDestination();
    this.#playbackGain.connect(this.#playbackOut);

    const { audioSource } = this.#options;
    if (audioSource === false) return;
    await this.#openMicrophone(audioSource === true ? undefined : audioSource);

    const moduleUrl = URL.createObjectURL(new Blob([CAPTURE_WORKLET_SOURCE], { type: 'text/javascript' }));
    try {
      await ctx.audioWorklet.addModule(moduleUrl);
    } finally {
      URL.revokeObjectURL(moduleUrl);
    }
    if (this.#ctx !== ctx) throw new Error('The call was left while it was starting.');
    const capture = new AudioWorkletNode(ctx, CAPTURE_PROCESSOR, {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      outputChannelCount: [1],
      processorOptions: { targetRate: CALL_SAMPLE_RATE, frameSamples: (CALL_SAMPLE_RATE * FRAME_MS) / 1000 },
    });
    capture.port.onmessage = ({ data }: MessageEvent<{ pcm: ArrayBuffer; level: number }>) => {
      this.#localLevel = this.#audioEnabled ? data.level : 0;
      const ws = this.#ws;
      if (ws?.readyState === WebSocket.OPEN && ws.bufferedAmount < MAX_SEND_BACKLOG) ws.send(data.pcm);
    };
    // A silent path to the destination keeps the worklet pulled by the audio graph.
    const mute = ctx.createGain();
    mute.gain.value = 0;
    capture.connect(mute).connect(ctx.destination);
    this.#capture = capture;
    this.#connectMicrophone();
  }

  async #openMicrophone(source: string | MediaStreamTrack | undefined): Promise<void> {
    if (source instanceof MediaStreamTrack) {
      this.#micStream = new MediaStream([source]);
      this.#ownsMic = false;
    } else {
      const ctx = this.#ctx;
      try {
        this.#micStream = await navigator.mediaDevices.getUserMedia({
          audio: {
            echoCancellation: true,
            noiseSuppression: true,
            autoGainControl: true,
            channelCount: 1,
            ...(source ? { deviceId: { exact: source } } : {}),
          },
        });
      } catch (error) {
        this.#emit('camera-error', {
          errorMsg: { errorMsg: (error as Error)?.message ?? String(error), audioOk: false, videoOk: true },
          error: { type: cameraErrorType(error), msg: (error as Error)?.message ?? String(error) },
        });
        throw error;
      }
      this.#ownsMic = true;
      if (this.#ctx !== ctx) {
        // Left while the permission prompt was open: release the microphone at once.
        for (const track of this.#micStream.getTracks()) track.stop();
        this.#micStream = null;
        throw new Error('The call was left while it was starting.');
      }
    }
    for (const track of this.#micStream.getAudioTracks()) track.enabled = this.#audioEnabled;
  }

  #connectMicrophone(): void {
    const ctx = this.#ctx;
    if (!ctx || !this.#micStream || !this.#capture) return;
    this.#micSource?.disconnect();
    this.#micSource = ctx.createMediaStreamSource(this.#micStream);
    this.#micSource.connect(this.#capture);
  }

  #connect(url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.binaryType = 'arraybuffer';
      this.#ws = ws;
      let opened = false;
      this.#abortConnect = (error) => {
        clearTimeout(timer);
        reject(error);
      };
      const timer = setTimeout(() => {
        reject(new Error('The call room did not answer in time.'));
        ws.close();
      }, CONNECT_TIMEOUT_MS);
      ws.onopen = () => {
        opened = true;
        this.#abortConnect = null;
        clearTimeout(timer);
        resolve();
      };
      ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => this.#onMessage(event.data);
      ws.onerror = () => {
        // A close event always follows with the code; the error event itself carries nothing.
      };
      ws.onclose = (event) => {
        clearTimeout(timer);
        if (this.#ws !== ws) return;
        this.#ws = null;
        if (!opened) {
          reject(
            new Error(event.code === 1006 ? 'Could not connect to the call room.' : closeMessage(event)),
          );
          return;
        }
        this.#onRemoteClose(event);
      };
    });
  }

  #onMessage(data: ArrayBuffer | string): void {
    let isListening = false;
    if (typeof data === 'string') {
      try {
        isListening = (JSON.parse(data) as { type?: unknown })?.type === 'listening';
      } catch {
        // Not JSON: passed on as it is; the SDK decides what to do with it.
      }
    }
    // The SDK (as with Daily) treats the plain string 'listening' as the start of the call. The
    // emulator sends {type:'listening'}; a provider that does not is taken to be listening once
    // anything arrives from it.
    if (!this.#listening) {
      this.#listening = true;
      this.#emit('app-message', { data: 'listening', fromId: ASSISTANT_SESSION_ID });
    }
    if (isListening) return;
    if (typeof data === 'string') this.#emit('app-message', { data, fromId: ASSISTANT_SESSION_ID });
    else if (this.#held) {
      // Played once the SDK listens, so the start of the greeting is not lost.
      this.#held.push(data);
      if (this.#held.length > MAX_HELD_FRAMES) this.#held.shift();
    } else this.#play(data);
  }

  #play(bytes: ArrayBuffer): void {
    const ctx = this.#ctx;
    const out = this.#playbackGain;
    if (!ctx || !out || bytes.byteLength < 2) return;
    const samples = pcmToFloat(bytes);
    const buffer = ctx.createBuffer(1, samples.length, CALL_SAMPLE_RATE);
    buffer.copyToChannel(samples, 0);
    const start = this.#schedule.place(ctx.currentTime, buffer.duration, levelOf(samples));
    if (start === null) return;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(out);
    source.onended = () => {
      source.disconnect();
      this.#sources.delete(source);
    };
    this.#sources.add(source);
    source.start(start);
  }

  #onRemoteClose(event: CloseEvent): void {
    const wasJoined = this.#joined;
    this.#release();
    if (!wasJoined) return;
    // 1000: the call ended normally (its ended status came first); 1001: the server went away.
    if (event.code !== 1000 && event.code !== 1001) {
      this.#emit('error', {
        errorMsg: closeMessage(event),
        error: { code: event.code, reason: event.reason },
      });
    }
    if (this.#assistant) this.#emit('participant-left', { participant: this.#assistant });
    this.#emit('left-meeting', {});
  }

  subscribe(sessionId: string, media: RoomSubscription): void {
    if (sessionId !== ASSISTANT_SESSION_ID || !media.audio || !this.#assistant) return;
    const track = this.#playbackOut?.stream.getAudioTracks()[0];
    if (!track) return;
    this.#emit('track-started', { participant: this.#assistant, track });
    const held = this.#held ?? [];
    this.#held = null;
    for (const frame of held) this.#play(frame);
  }

  sendAppMessage(data: string): void {
    const ws = this.#ws;
    if (ws?.readyState !== WebSocket.OPEN) return;
    // Only JSON goes on the wire: Daily-only handshakes such as 'playable' mean nothing here.
    try {
      JSON.parse(data);
    } catch {
      return;
    }
    ws.send(data);
  }

  async startRemoteAudioLevelObserver(intervalMs: number): Promise<void> {
    if (this.#remoteTimer) clearInterval(this.#remoteTimer);
    this.#remoteTimer = setInterval(() => {
      const ctx = this.#ctx;
      if (!ctx) return;
      this.#emit('remote-participants-audio-level', {
        participantsAudioLevel: { [ASSISTANT_SESSION_ID]: this.#schedule.levelAt(ctx.currentTime) },
      });
    }, intervalMs);
  }

  async startLocalAudioLevelObserver(intervalMs = 100): Promise<void> {
    if (this.#localTimer) clearInterval(this.#localTimer);
    this.#localTimer = setInterval(
      () => this.#emit('local-audio-level', { audioLevel: this.#localLevel }),
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
    return this.#localLevel;
  }

  setLocalAudio(enabled: boolean): void {
    this.#audioEnabled = enabled;
    // A disabled track feeds silence, so the stream keeps its timing and the assistant hears nothing.
    for (const track of this.#micStream?.getAudioTracks() ?? []) track.enabled = enabled;
    if (!enabled) this.#localLevel = 0;
  }

  async setAudioProcessor(type: 'noise-cancellation' | 'none'): Promise<void> {
    const on = type === 'noise-cancellation';
    // A refusal rejects this call instead of raising 'audio-processor-error': the caller asked, so
    // the caller handles it, and the SDK's recovery (which calls this with 'none') cannot loop.
    await Promise.all(
      (this.#micStream?.getAudioTracks() ?? []).map((track) =>
        track.applyConstraints({ ...track.getConstraints(), noiseSuppression: on }),
      ),
    );
  }

  async setInputDevices(devices: RoomInputDevices): Promise<void> {
    if (devices.audioSource === undefined && devices.audioDeviceId === undefined) return;
    if (!this.#ctx || this.#closed) throw new Error('Join the call before changing devices.');
    const previous = this.#micStream;
    const ownedPrevious = this.#ownsMic;
    await this.#openMicrophone(devices.audioSource ?? devices.audioDeviceId ?? undefined);
    this.#connectMicrophone();
    if (ownedPrevious) for (const track of previous?.getTracks() ?? []) track.stop();
  }

  async setOutputDevice(): Promise<void> {
    // Playback goes through the SDK's <audio> element, which routes to the chosen output itself.
  }

  startRecording(): void {
    this.#emit('recording-error', {
      action: 'recording-error',
      errorMsg: 'Recording is not available in WebSocket calls.',
    } as RoomEventMap['recording-error']);
  }

  stopRecording(): void {}

  startScreenShare(): void {
    this.#emit('nonfatal-error', {
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
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'hangup' }));
    this.#release();
    if (wasJoined) this.#emit('left-meeting', {});
  }

  async destroy(): Promise<void> {
    this.#closed = true;
    this.#release();
    this.#listeners.clear();
  }

  /** Closes the socket, stops the microphone and playback, and closes the AudioContext. Idempotent. */
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
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000, 'left');
    }
    if (this.#remoteTimer) clearInterval(this.#remoteTimer);
    if (this.#localTimer) clearInterval(this.#localTimer);
    this.#remoteTimer = this.#localTimer = null;
    if (this.#capture) {
      this.#capture.port.postMessage('stop');
      this.#capture.port.onmessage = null;
      this.#capture.disconnect();
      this.#capture = null;
    }
    this.#micSource?.disconnect();
    this.#micSource = null;
    if (this.#ownsMic) for (const track of this.#micStream?.getTracks() ?? []) track.stop();
    this.#micStream = null;
    for (const source of this.#sources) {
      source.onended = null;
      try {
        source.stop();
      } catch {
        // Never started or already stopped.
      }
      source.disconnect();
    }
    this.#sources.clear();
    const playbackTrack = this.#playbackOut?.stream.getAudioTracks()[0];
    if (playbackTrack && this.#assistant)
      this.#emit('track-stopped', { participant: this.#assistant, track: playbackTrack });
    playbackTrack?.stop();
    this.#playbackGain?.disconnect();
    this.#playbackGain = this.#playbackOut = null;
    this.#localLevel = 0;
    const ctx = this.#ctx;
    this.#ctx = null;
    if (ctx && ctx.state !== 'closed') void ctx.close().catch(() => undefined);
  }
}

/** Creates a WebSocket room (not yet joined). */
export function createRoom(options: RoomOptions): Room {
  return new WebSocketRoom(options);
}
