/**
 * Typed fakes of the browser objects the WebSocket room opens (socket, audio context, worklet,
 * microphone stream), for the room's tests and the SDK's tests over a WebSocket call. Test-only:
 * nothing in the SDK imports this file. Each covers what the room uses, not the whole DOM type.
 * @module
 */
import type { RoomBrowserApis } from './types.js';

export class FakeTrack {
  kind = 'audio';
  enabled = true;
  stopped = false;
  constraints: MediaTrackConstraints = {};
  stop() {
    this.stopped = true;
  }
  getConstraints() {
    return this.constraints;
  }
  async applyConstraints(c: MediaTrackConstraints) {
    this.constraints = c;
  }
}

export class FakeStream {
  constructor(readonly tracks: FakeTrack[] = [new FakeTrack()]) {}
  getAudioTracks() {
    return this.tracks;
  }
  getTracks() {
    return this.tracks;
  }
}

export class FakeNode {
  connected: unknown[] = [];
  connect<T>(node: T): T {
    this.connected.push(node);
    return node;
  }
  disconnect() {
    this.connected = [];
  }
}

export class FakeBufferSource extends FakeNode {
  buffer: { duration: number } | null = null;
  startedAt: number | null = null;
  stopped = false;
  onended: (() => void) | null = null;
  start(at: number) {
    this.startedAt = at;
  }
  stop() {
    this.stopped = true;
  }
}

export class FakeAudioContext {
  static last: FakeAudioContext;
  state: 'running' | 'closed' = 'running';
  currentTime = 1;
  sampleRate = 48_000;
  destination = new FakeNode();
  modules: string[] = [];
  sources: FakeBufferSource[] = [];
  playbackTrack = new FakeTrack();
  audioWorklet = { addModule: async (url: string) => void this.modules.push(url) };
  constructor() {
    FakeAudioContext.last = this;
  }
  async resume() {}
  async close() {
    this.state = 'closed';
  }
  createGain() {
    return Object.assign(new FakeNode(), { gain: { value: 1 } });
  }
  createMediaStreamDestination() {
    return Object.assign(new FakeNode(), { stream: new FakeStream([this.playbackTrack]) });
  }
  createMediaStreamSource() {
    return new FakeNode();
  }
  createBuffer(_channels: number, length: number, rate: number) {
    return { duration: length / rate, copyToChannel: () => undefined };
  }
  createBufferSource() {
    const source = new FakeBufferSource();
    this.sources.push(source);
    return source;
  }
}

export class FakeWorkletNode extends FakeNode {
  static last: FakeWorkletNode;
  port = {
    onmessage: null as ((e: { data: unknown }) => void) | null,
    posted: [] as unknown[],
    postMessage(m: unknown) {
      this.posted.push(m);
    },
  };
  constructor(
    readonly context: unknown,
    readonly name: string,
    readonly options: { processorOptions: { targetRate: number; frameSamples: number } },
  ) {
    super();
    FakeWorkletNode.last = this;
  }
}

export class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static last: FakeSocket | undefined;
  readyState = FakeSocket.CONNECTING;
  binaryType = 'blob';
  bufferedAmount = 0;
  sent: (string | ArrayBuffer)[] = [];
  closedWith: [number?, string?] | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string | ArrayBuffer) {
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.closedWith = [code, reason];
    this.readyState = FakeSocket.CLOSED;
  }
  // The server's side:
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  receive(data: string | ArrayBuffer) {
    this.onmessage?.({ data });
  }
  serverClose(code: number, reason = '') {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code, reason });
  }
}

/**
 * The room's browser APIs over the fakes; `getUserMedia` is the test's own mock (to assert on the
 * constraints, or to refuse the microphone). The fakes are cast once here.
 */
export function fakeBrowserApis(
  getUserMedia: (constraints: MediaStreamConstraints) => Promise<FakeStream>,
): Required<Omit<RoomBrowserApis, 'captureWorkletUrl'>> {
  return {
    createWebSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    createAudioContext: () => new FakeAudioContext() as unknown as AudioContext,
    getUserMedia: (constraints) => getUserMedia(constraints) as unknown as Promise<MediaStream>,
    createAudioWorkletNode: (context, name, options) =>
      new FakeWorkletNode(
        context,
        name,
        options as FakeWorkletNode['options'],
      ) as unknown as AudioWorkletNode,
    createMediaStream: (tracks) => new FakeStream(tracks as unknown as FakeTrack[]) as unknown as MediaStream,
  };
}
