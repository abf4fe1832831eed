/**
 * The part of the voice SDK's public API (`@engage/voice`, a drop-in for `@vapi-ai/web`) the widget
 * uses. Typing the widget against this subset lets component tests drive it with a fake emitter
 * and keeps the SDK itself out of the landing pages' initial JavaScript.
 */
/** The payload of each SDK event the widget listens to (undefined: the event carries none). */
export interface VoiceEventPayloads {
  'call-start': undefined;
  'call-end': undefined;
  'speech-start': undefined;
  'speech-end': undefined;
  'volume-level': number;
  'local-volume-level': number;
  /** The assistant's messages (transcripts, speech and status updates…), parsed JSON. */
  message: unknown;
  error: unknown;
  'camera-error': unknown;
  'call-start-failed': unknown;
}

export type VoiceEventName = keyof VoiceEventPayloads;

/** A user message added to the call's conversation (`@vapi-ai/web`'s `send()` shape). */
export interface AddMessage {
  type: 'add-message';
  message: { role: 'user'; content: string };
}

export interface VoiceClient {
  /** Starts a call with a provider assistant; resolves null when the start failed. */
  start(assistantId: string): Promise<unknown>;
  /** Ends the call, or cancels a start in progress. */
  stop(): Promise<void>;
  setMuted(muted: boolean): void;
  isMuted(): boolean;
  /** Sends a Live Call Control message; here a question typed during the call. */
  send(message: AddMessage): void;
  /** Starts `local-volume-level` events (the microphone's level) every `interval` ms. */
  startLocalAudioLevelObserver(interval?: number): Promise<void>;
  // Overloads rather than one generic signature, so the SDK's own generic `on` satisfies them.
  on(event: 'call-start' | 'call-end' | 'speech-start' | 'speech-end', listener: () => void): unknown;
  on(event: 'volume-level' | 'local-volume-level', listener: (volume: number) => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error' | 'camera-error' | 'call-start-failed', listener: (payload: unknown) => void): unknown;
  removeAllListeners(): unknown;
}

/** Builds the SDK's client: `new Vapi(publicKey, apiBaseUrl)`. */
export type CreateVoiceClient = (publicKey: string, apiBaseUrl: string) => VoiceClient;

/** Loads the SDK (and with it the call library) on demand. */
export type LoadVoiceSdk = () => Promise<CreateVoiceClient>;
