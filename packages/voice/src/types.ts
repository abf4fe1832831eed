/**
 * Public types: the events and payloads of `@vapi-ai/web` 2.7, so apps written for it type-check.
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
import type {
  CreateAssistantDTO as ClientCreateAssistantDTO,
  CreateWebCallDTO,
  JsonObject,
  WebCall,
} from './api.js';

export type { JsonObject, WebCall };

/**
 * An assistant, squad or workflow given inline, and overrides: passed to the provider as JSON,
 * which validates them. Typed as any object so values typed with @vapi-ai/web's own (generated,
 * stricter) DTOs are accepted unchanged; the client's assistant shape still guides completion.
 */
export type CreateAssistantDTO = ClientCreateAssistantDTO | object;
export type CreateSquadDTO = object;
export type CreateWorkflowDTO = object;
export type AssistantOverrides = object;
export type WorkflowOverrides = object;

/** The call `start()` resolves with: the provider's web call. */
export type Call = WebCall;

/** What `reconnect()` needs of a web call (as @vapi-ai/web types it: only the URL is required). */
export interface JoinableCall {
  webCallUrl: string;
  id?: string;
  artifactPlan?: { videoRecordingEnabled?: boolean };
  assistant?: { voice?: { provider?: string } };
  transport?: { callToken?: string; callUrl?: string; websocketCallUrl?: string; [field: string]: unknown };
}

export interface StartCallOptions {
  /** Whether the provider deletes the room when the user leaves (default true); false allows `reconnect()`. */
  roomDeleteOnUserLeaveEnabled?: boolean;
  /**
   * Creates the call instead of the SDK's `POST /call/web` with the public key, for example through the
   * app's own server holding the private key (`createCallThroughServer` from `@engage/voice/server-call`). Runs as the web-call-creation
   * stage: cancellable by `stop()`, its failure reported like the provider's.
   */
  createCall?: (body: CreateWebCallDTO, init: { signal: AbortSignal }) => Promise<JoinableCall>;
}

/** Stages of the start routine, in order. */
export const START_STAGES = [
  'initialization',
  'web-call-creation',
  'daily-call-object-creation',
  'mobile-permissions',
  'daily-call-join',
  'video-recording-setup',
  'audio-observer-setup',
  'audio-processing-setup',
] as const;
export type StartStage = (typeof START_STAGES)[number];

export interface CallStartProgressEvent {
  stage: string;
  status: 'started' | 'completed' | 'failed';
  /** Milliseconds the stage took (on completed and failed). */
  duration?: number;
  /** ISO 8601. */
  timestamp: string;
  metadata?: Record<string, unknown>;
}

export interface CallStartSuccessEvent {
  totalDuration: number;
  callId: string;
  timestamp: string;
}

export interface CallStartFailedEvent {
  /** The stage that failed ('cancelled' starts report the stage they were in). */
  stage: string;
  totalDuration: number;
  /** Always a readable string (the official SDK sometimes put the HTTP body object here). */
  error: string;
  errorStack?: string;
  /** HTTP status when the web-call request was refused. */
  errorStatus?: number;
  /** The provider's response body when the web-call request was refused, kept as sent. */
  errorBody?: unknown;
  timestamp: string;
  context: Record<string, unknown>;
}

/** An error as a plain object that survives JSON.stringify. */
export interface SerializedError {
  message: string;
  name?: string;
  stack?: string;
  [detail: string]: unknown;
}

export type VapiErrorType =
  | 'validation-error'
  | 'start-method-error'
  | 'daily-call-object-creation-error'
  | 'daily-call-join-error'
  | 'video-recording-setup-error'
  | 'audio-observer-setup-error'
  | 'audio-processing-setup-error'
  | 'audio-processor-recovery-error'
  | 'audio-start-failed'
  | 'daily-error'
  | 'reconnect-error';

/** The payload of the `error` event. */
export interface VapiErrorEvent {
  type: VapiErrorType;
  stage?: string;
  error: SerializedError;
  timestamp: string;
  totalDuration?: number;
  duration?: number;
  context?: Record<string, unknown>;
}

/** The payload of `camera-error`; permission denied has `error.error.type === 'permissions'`. */
export interface VapiCameraErrorEvent {
  type: 'camera-error';
  error: SerializedError;
  timestamp: string;
}

/** Listener signatures by event name. */
export interface VapiEventListeners {
  'call-start': () => void;
  'call-end': () => void;
  'speech-start': () => void;
  'speech-end': () => void;
  'volume-level': (volume: number) => void;
  'local-volume-level': (volume: number) => void;
  'local-audio-level-observer-error': (error: SerializedError) => void;
  /** Parsed JSON messages from the assistant (transcripts, status updates, function calls…). */
  message: (message: any) => void; // eslint-disable-line @typescript-eslint/no-explicit-any -- the assistant's messages are open-ended JSON; `any` keeps apps written for @vapi-ai/web compiling
  video: (track: MediaStreamTrack) => void;
  audio: (player: HTMLAudioElement) => void;
  error: (error: VapiErrorEvent) => void;
  'camera-error': (error: VapiCameraErrorEvent) => void;
  'network-quality-change': (event: DailyEventObjectNetworkQualityEvent) => void;
  'network-connection': (event: DailyEventObjectNetworkConnectionEvent) => void;
  'daily-participant-updated': (participant: DailyParticipant) => void;
  'call-start-progress': (event: CallStartProgressEvent) => void;
  'call-start-success': (event: CallStartSuccessEvent) => void;
  'call-start-failed': (event: CallStartFailedEvent) => void;
  'recording-started': (event: DailyEventObjectRecordingStarted) => void;
  'recording-stopped': (event: DailyEventObjectRecordingStopped) => void;
  'recording-error': (event: DailyEventObjectRecordingError) => void;
}

export type VapiEventNames = keyof VapiEventListeners;

/** The same map as argument lists, for the emitter. */
export type VapiEventArgs = { [E in VapiEventNames]: Parameters<VapiEventListeners[E]> };

/** Messages `send()` accepts (Live Call Control). */
export type VapiClientToServerMessage =
  | { type: 'add-message'; message: { role: string; content: string }; triggerResponseEnabled?: boolean }
  | {
      type: 'control';
      control: 'mute-assistant' | 'unmute-assistant' | 'say-first-message';
      videoRecordingStartDelaySeconds?: number;
    }
  | {
      type: 'say';
      message: string;
      endCallAfterSpoken?: boolean;
      interruptionsEnabled?: boolean;
      interruptAssistantEnabled?: boolean;
    }
  | { type: 'end-call' };
