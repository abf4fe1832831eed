/**
 * The WebSocket room's audio: the microphone captured by an AudioWorklet (mono, resampled to the
 * call's rate, 20 ms frames of 16-bit PCM), and the assistant's PCM played through a jitter buffer
 * into a MediaStream track, which the SDK plays in its <audio> element like Daily's track. Levels
 * come from the capture frames (local) and from the playback schedule (remote).
 *
 * Every browser object is made through the room's injected APIs ({@link browserApis}), and only
 * from `start()` on.
 * @module
 */
import type { RoomBrowserApis, RoomEventMap } from './types.js';
import {
  CAPTURE_PROCESSOR,
  CAPTURE_WORKLET_SOURCE,
  levelOf,
  pcmToFloat,
  PlaybackSchedule,
} from './websocket-audio.js';
import { CALL_SAMPLE_RATE, microphoneConstraints, microphoneError } from './websocket-protocol.js';

const FRAME_MS = 20;

export type BrowserApis = Required<Omit<RoomBrowserApis, 'captureWorkletUrl'>> & {
  captureWorkletUrl: string | null;
};

/** The injected APIs, with the browser's own for any left out (read when called, never before). */
export function browserApis(options: RoomBrowserApis): BrowserApis {
  return {
    createWebSocket: options.createWebSocket ?? ((url) => new WebSocket(url)),
    createAudioContext: options.createAudioContext ?? ((o) => new AudioContext(o)),
    getUserMedia: options.getUserMedia ?? ((c) => navigator.mediaDevices.getUserMedia(c)),
    createAudioWorkletNode:
      options.createAudioWorkletNode ?? ((context, name, o) => new AudioWorkletNode(context, name, o)),
    createMediaStream: options.createMediaStream ?? ((tracks) => new MediaStream(tracks)),
    captureWorkletUrl: options.captureWorkletUrl ?? null,
  };
}

export interface CallAudioEvents {
  /** A captured microphone frame: 16-bit little-endian PCM at the call's rate. */
  frame(pcm: ArrayBuffer): void;
  /** The microphone could not be opened (the room's camera-error event). */
  microphoneError(event: RoomEventMap['camera-error']): void;
}

const LEFT_WHILE_STARTING = 'The call was left while it was starting.';

export class CallAudio {
  readonly #apis: BrowserApis;
  readonly #events: CallAudioEvents;
  readonly #schedule = new PlaybackSchedule();
  readonly #sources = new Set<AudioBufferSourceNode>();
  #ctx: AudioContext | null = null;
  #micStream: MediaStream | null = null;
  /** True when the microphone track is ours to stop (not one the app passed in). */
  #ownsMic = false;
  #micSource: MediaStreamAudioSourceNode | null = null;
  #capture: AudioWorkletNode | null = null;
  #playbackGain: GainNode | null = null;
  #playbackOut: MediaStreamAudioDestinationNode | null = null;
  #enabled: boolean;
  #localLevel = 0;

  constructor(apis: BrowserApis, events: CallAudioEvents, options: { enabled: boolean }) {
    this.#apis = apis;
    this.#events = events;
    this.#enabled = options.enabled;
  }

  /** True between `start()` and `release()`. */
  get started(): boolean {
    return this.#ctx !== null;
  }

  /** The latest microphone level, 0..1 (0 while muted). */
  get localLevel(): number {
    return this.#localLevel;
  }

  /** The track the assistant's audio plays into, once started. */
  get playbackTrack(): MediaStreamTrack | undefined {
    return this.#playbackOut?.stream.getAudioTracks()[0];
  }

  /** The level of the assistant's audio playing now, or null when not started. */
  remoteLevel(): number | null {
    const ctx = this.#ctx;
    return ctx ? this.#schedule.levelAt(ctx.currentTime) : null;
  }

  /** Opens the audio context, the playback graph and (unless `audioSource` is false) the microphone. */
  async start(audioSource: boolean | string | MediaStreamTrack): Promise<void> {
    const ctx = this.#apis.createAudioContext({ latencyHint: 'interactive' });
    this.#ctx = ctx;
    // Started from a click in the page; resume() only matters when the autoplay policy held it.
    void ctx.resume().catch(() => undefined);

    this.#playbackGain = ctx.createGain();
    this.#playbackOut = ctx.createMediaStreamDestination();
    this.#playbackGain.connect(this.#playbackOut);

    if (audioSource === false) return;
    await this.#openMicrophone(audioSource === true ? undefined : audioSource);

    const fileUrl = this.#apis.captureWorkletUrl;
    if (fileUrl) await ctx.audioWorklet.addModule(fileUrl);
    else {
      const moduleUrl = URL.createObjectURL(new Blob([CAPTURE_WORKLET_SOURCE], { type: 'text/javascript' }));
      try {
        await ctx.audioWorklet.addModule(moduleUrl);
      } finally {
        URL.revokeObjectURL(moduleUrl);
      }
    }
    if (this.#ctx !== ctx) throw new Error(LEFT_WHILE_STARTING);
    const capture = this.#apis.createAudioWorkletNode(ctx, CAPTURE_PROCESSOR, {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      outputChannelCount: [1],
      processorOptions: { targetRate: CALL_SAMPLE_RATE, frameSamples: (CALL_SAMPLE_RATE * FRAME_MS) / 1000 },
    });
    capture.port.onmessage = ({ data }: MessageEvent<{ pcm: ArrayBuffer; level: number }>) => {
      this.#localLevel = this.#enabled ? data.level : 0;
      this.#events.frame(data.pcm);
    };
    // A silent path to the destination keeps the worklet pulled by the audio graph.
    const mute = ctx.createGain();
    mute.gain.value = 0;
    capture.connect(mute).connect(ctx.destination);
    this.#capture = capture;
    this.#connectMicrophone();
  }

  /** A track the app passed in, or a device id (undefined: the default microphone). */
  async #openMicrophone(source: string | MediaStreamTrack | undefined): Promise<void> {
    if (typeof source === 'object') {
      this.#micStream = this.#apis.createMediaStream([source]);
      this.#ownsMic = false;
    } else {
      const ctx = this.#ctx;
      try {
        this.#micStream = await this.#apis.getUserMedia(microphoneConstraints(source));
      } catch (error) {
        this.#events.microphoneError(microphoneError(error));
        throw error;
      }
      this.#ownsMic = true;
      if (this.#ctx !== ctx) {
        // Left while the permission prompt was open: release the microphone at once.
        for (const track of this.#micStream.getTracks()) track.stop();
        this.#micStream = null;
        throw new Error(LEFT_WHILE_STARTING);
      }
    }
    for (const track of this.#micStream.getAudioTracks()) track.enabled = this.#enabled;
  }

  #connectMicrophone(): void {
    const ctx = this.#ctx;
    if (!ctx || !this.#micStream || !this.#capture) return;
    this.#micSource?.disconnect();
    this.#micSource = ctx.createMediaStreamSource(this.#micStream);
    this.#micSource.connect(this.#capture);
  }

  /** Switches to another microphone, stopping the previous one if it was ours. */
  async changeMicrophone(source: string | MediaStreamTrack | undefined): Promise<void> {
    const previous = this.#micStream;
    const ownedPrevious = this.#ownsMic;
    await this.#openMicrophone(source);
    this.#connectMicrophone();
    if (ownedPrevious) for (const track of previous?.getTracks() ?? []) track.stop();
  }

  /** Turns the microphone on or off; a disabled track feeds silence, so the stream keeps its timing. */
  setEnabled(enabled: boolean): void {
    this.#enabled = enabled;
    for (const track of this.#micStream?.getAudioTracks() ?? []) track.enabled = enabled;
    if (!enabled) this.#localLevel = 0;
  }

  /** Rejects when a track refuses the change. */
  async setNoiseSuppression(on: boolean): Promise<void> {
    await Promise.all(
      (this.#micStream?.getAudioTracks() ?? []).map((track) =>
        track.applyConstraints({ ...track.getConstraints(), noiseSuppression: on }),
      ),
    );
  }

  /** Schedules a frame of the assistant's PCM on the jitter buffer. */
  play(bytes: ArrayBuffer): void {
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

  /** Stops the capture, the microphone (if ours) and playback, and closes the context. Idempotent. */
  release(): void {
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
    this.playbackTrack?.stop();
    this.#playbackGain?.disconnect();
    this.#playbackGain = this.#playbackOut = null;
    this.#localLevel = 0;
    const ctx = this.#ctx;
    this.#ctx = null;
    if (ctx && ctx.state !== 'closed') void ctx.close().catch(() => undefined);
  }
}
