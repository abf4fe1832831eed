import type {
  AddMessage,
  CreateVoiceClient,
  LoadVoiceSdk,
  VoiceClient,
  VoiceEventName,
  VoiceEventPayloads,
} from '../lib/voice-client';

type Listener = (payload: never) => void;

/**
 * A stand-in for the voice SDK's client in component tests: a small typed event emitter with the
 * methods the widget calls. Tests emit SDK events (the assistant's `message`s included) and inspect
 * the calls made (`started`, `stopCalls`, `sent`).
 */
export class FakeVoiceClient implements VoiceClient {
  readonly listeners = new Map<VoiceEventName, Set<Listener>>();
  readonly started: string[] = [];
  stopCalls = 0;
  /** Messages the widget sent with send(), in order. */
  readonly sent: AddMessage[] = [];
  /** Set to make send() throw (no call joined, or the SDK refusing the message). */
  sendError: Error | undefined;
  /** The interval of each startLocalAudioLevelObserver() call. */
  readonly levelObservers: (number | undefined)[] = [];
  private muted = false;
  /** What the next start() does; by default it stays pending like a call still connecting. */
  startImpl: (assistantId: string) => Promise<unknown> = () => new Promise(() => {});

  constructor(
    readonly publicKey: string,
    readonly apiBaseUrl: string,
  ) {}

  start(assistantId: string): Promise<unknown> {
    this.started.push(assistantId);
    return this.startImpl(assistantId);
  }

  stop(): Promise<void> {
    this.stopCalls += 1;
    this.muted = false;
    return Promise.resolve();
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
  }

  isMuted(): boolean {
    return this.muted;
  }

  send(message: AddMessage): void {
    if (this.sendError) throw this.sendError;
    this.sent.push(message);
  }

  startLocalAudioLevelObserver(interval?: number): Promise<void> {
    this.levelObservers.push(interval);
    return Promise.resolve();
  }

  on(event: VoiceEventName, listener: Listener): this {
    const set = this.listeners.get(event) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  removeAllListeners(): this {
    this.listeners.clear();
    return this;
  }

  emit<E extends VoiceEventName>(
    event: E,
    ...payload: VoiceEventPayloads[E] extends undefined ? [] : [VoiceEventPayloads[E]]
  ): void {
    for (const listener of this.listeners.get(event) ?? [])
      (listener as (payload: VoiceEventPayloads[E] | undefined) => void)(payload[0]);
  }

  /** The assistant's side: a transcript message as the provider sends it. */
  transcript(
    role: 'assistant' | 'user',
    transcript: string,
    transcriptType: 'partial' | 'final' = 'final',
  ): void {
    this.emit('message', { type: 'transcript', role, transcriptType, transcript });
  }

  listenerCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}

/** A loader that builds FakeVoiceClients and remembers them, as the real loader builds the SDK. */
export function createFakeSdk() {
  const clients: FakeVoiceClient[] = [];
  let loads = 0;
  const create: CreateVoiceClient = (publicKey, apiBaseUrl) => {
    const client = new FakeVoiceClient(publicKey, apiBaseUrl);
    clients.push(client);
    return client;
  };
  const loadSdk: LoadVoiceSdk = () => {
    loads += 1;
    return Promise.resolve(create);
  };
  return {
    loadSdk,
    clients,
    get loads() {
      return loads;
    },
    /** The one client the widget created; fails the test if there is none or more. */
    get client(): FakeVoiceClient {
      if (clients.length !== 1) throw new Error(`expected one SDK client, found ${clients.length}`);
      return clients[0] as FakeVoiceClient;
    },
  };
}
