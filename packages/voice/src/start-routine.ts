/**
 * The web-call start routine of SPEC §4: eight stages, each reported as started and then
 * completed or failed with its duration, then `call-start-success` or `call-start-failed`.
 *
 * Every await races the call's abort signal, so `stop()` (or the room ending) cancels the start
 * at any stage: the HTTP request is aborted, a room that was created is left and destroyed, and
 * `start()` resolves null (the official SDK joined the call anyway).
 * @module
 */
import { createWebCall, isVapiApiError, sleep, type CreateWebCallDTO, type Requester } from './api.js';
import { REMOTE_AUDIO_LEVEL_INTERVAL_MS, now, type LiveCall } from './call.js';
import { messageOf, serializeError, StartCancelledError } from './errors.js';
import { createRoomFor } from './rooms/choose.js';
import type { DailyFactoryLike } from './rooms/daily.js';
import type { Room, RoomOptions } from './rooms/types.js';
import { isWebSocketUrl } from './rooms/websocket-protocol.js';
import type {
  CallStartProgressEvent,
  JoinableCall,
  StartCallOptions,
  StartStage,
  VapiErrorType,
} from './types.js';

/** Wait before joining on mobile, so the permission prompt settles (SPEC §9). */
export const MOBILE_JOIN_DELAY_MS = 1000;

/** Recording layout (SPEC §9). */
export const RECORDING_LAYOUT = {
  width: 1280,
  height: 720,
  backgroundColor: '#FF1F2D3D',
  layout: { preset: 'default' as const },
};

export interface StartEnvironment {
  requester: Requester;
  /** Settles when the previous call has released its room; the start waits for it. */
  after?: Promise<void>;
  dailyFactory?: DailyFactoryLike;
  roomOptions: Omit<RoomOptions, 'videoSource'> & { videoSource?: boolean };
  isMobile(): boolean;
}

export type StartRequest =
  | {
      kind: 'start';
      body: CreateWebCallDTO;
      context: Record<string, unknown>;
      createCall?: StartCallOptions['createCall'];
    }
  | { kind: 'reconnect'; webCall: JoinableCall; context: Record<string, unknown> };

/** The URL to join and whether it is a WebSocket room. */
export function joinTarget(webCall: JoinableCall): string | undefined {
  if (typeof webCall.webCallUrl === 'string' && webCall.webCallUrl) return webCall.webCallUrl;
  const ws = webCall.transport?.websocketCallUrl;
  if (typeof ws === 'string' && isWebSocketUrl(ws)) return ws;
  const callUrl = webCall.transport?.callUrl;
  return typeof callUrl === 'string' && callUrl ? callUrl : undefined;
}

/** The only audio the WebSocket room speaks: the provider's default for `vapi.websocket` calls. */
const ROOM_AUDIO_FORMAT = { format: 'pcm_s16le', sampleRate: 16_000 } as const;

/**
 * Throws when a WebSocket call asks for another audio format (µ-law, another rate): the room would
 * send and play noise. A call without `transport.audioFormat` uses the provider's default.
 */
export function assertRoomAudioFormat(webCall: JoinableCall): void {
  const audioFormat = webCall.transport?.audioFormat as
    { format?: unknown; sampleRate?: unknown } | undefined;
  if (typeof audioFormat !== 'object' || audioFormat === null) return;
  const format = audioFormat.format ?? ROOM_AUDIO_FORMAT.format;
  const sampleRate = audioFormat.sampleRate ?? ROOM_AUDIO_FORMAT.sampleRate;
  if (format === ROOM_AUDIO_FORMAT.format && sampleRate === ROOM_AUDIO_FORMAT.sampleRate) return;
  throw new Error(
    `The WebSocket call uses ${String(format)} at ${String(sampleRate)} Hz; this SDK speaks ` +
      `${ROOM_AUDIO_FORMAT.format} at ${ROOM_AUDIO_FORMAT.sampleRate} Hz. Create the call with that audioFormat.`,
  );
}

/** Rejects with the signal's reason as soon as it aborts. */
function race<T>(work: Promise<T> | T, signal: AbortSignal): Promise<T> {
  // Work abandoned by an abort may still fail later; that failure is expected, not unhandled.
  Promise.resolve(work).catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(work).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** An error raised inside a stage, tagged with the error event type it was already reported as. */
class StageError extends Error {
  constructor(
    readonly stage: StartStage,
    readonly original: unknown,
  ) {
    super(messageOf(original));
    this.name = 'StageError';
  }
}

/**
 * Runs the routine for `call` (already registered with the client, so stop() can reach it).
 * Resolves the web call on success, or null on failure or cancellation. Never rejects.
 */
export async function runStart(
  call: LiveCall,
  env: StartEnvironment,
  request: StartRequest,
): Promise<JoinableCall | null> {
  const started = Date.now();
  const signal = call.signal;
  let current: StartStage = 'initialization';
  let webCall: JoinableCall | undefined = request.kind === 'reconnect' ? request.webCall : undefined;
  const isReconnect = request.kind === 'reconnect';

  const progress = (event: Omit<CallStartProgressEvent, 'timestamp'>) =>
    call.emit('call-start-progress', { ...event, timestamp: now() });
  const reportError = (type: VapiErrorType, stage: StartStage, error: unknown, duration?: number) =>
    call.emit('error', {
      type,
      stage,
      error: serializeError(error),
      timestamp: now(),
      ...(duration !== undefined ? { duration } : {}),
    });

  /** One stage: started, then completed with its duration, or failed (and rethrown). */
  async function stage<T>(
    name: StartStage,
    work: () => Promise<T> | T,
    options: {
      metadata?: Record<string, unknown>;
      errorType?: VapiErrorType;
      completed?: (value: T) => Record<string, unknown>;
    } = {},
  ): Promise<T> {
    current = name;
    progress({ stage: name, status: 'started', ...(options.metadata ? { metadata: options.metadata } : {}) });
    const t0 = Date.now();
    try {
      const value = await race(work(), signal);
      const metadata = options.completed?.(value);
      progress({
        stage: name,
        status: 'completed',
        duration: Date.now() - t0,
        ...(metadata ? { metadata } : {}),
      });
      return value;
    } catch (error) {
      const duration = Date.now() - t0;
      // Aborted: by stop() (a cancellation) or by the room ending or failing (already reported).
      const aborted = error instanceof StartCancelledError;
      const cancelled = aborted && error.byUser;
      progress({
        stage: name,
        status: 'failed',
        duration,
        metadata: cancelled ? { reason: 'cancelled', cause: error.message } : { error: messageOf(error) },
      });
      if (!aborted && options.errorType) reportError(options.errorType, name, error, duration);
      throw aborted ? error : new StageError(name, error);
    }
  }

  /** A stage whose failure is reported but does not stop the call. */
  async function optionalStage(
    name: StartStage,
    errorType: VapiErrorType,
    work: () => Promise<unknown> | unknown,
  ) {
    try {
      await stage(name, work, { errorType });
    } catch (error) {
      if (error instanceof StartCancelledError) throw error;
    }
  }

  try {
    await stage('initialization', () => env.after, {
      metadata: { ...request.context, isReconnect },
    });

    if (request.kind === 'start') {
      webCall = await stage(
        'web-call-creation',
        () =>
          request.createCall
            ? request.createCall(request.body, { signal })
            : createWebCall(env.requester, request.body, { signal }),
        {
          completed: (value) => ({
            callId: value?.id ?? 'unknown',
            videoRecordingEnabled: value?.artifactPlan?.videoRecordingEnabled ?? false,
            voiceProvider: value?.assistant?.voice?.provider ?? 'unknown',
          }),
        },
      );
    }
    const created = webCall as JoinableCall;
    const url = typeof created === 'object' && created !== null ? joinTarget(created) : undefined;
    const videoRecording = created?.artifactPlan?.videoRecordingEnabled ?? false;
    const videoEnabled = created?.assistant?.voice?.provider === 'tavus';
    const callToken =
      typeof created?.transport?.callToken === 'string' ? created.transport.callToken : undefined;
    const roomOptions: RoomOptions = {
      ...env.roomOptions,
      videoSource: env.roomOptions.videoSource ?? videoRecording,
    };

    const room: Room = await stage(
      'daily-call-object-creation',
      async () => {
        if (!url) throw new Error('The web call has no webCallUrl to join.');
        if (isWebSocketUrl(url)) assertRoomAudioFormat(webCall as JoinableCall);
        const created = await createRoomFor(url, roomOptions, env.dailyFactory);
        // Loading Daily can outlast a stop(): a room nobody will use is released at once.
        if (signal.aborted) {
          await created.destroy();
          throw signal.reason as Error;
        }
        call.attach(created, { videoRecording, videoEnabled });
        return created;
      },
      {
        metadata: {
          audioSource: typeof roomOptions.audioSource === 'object' ? 'track' : roomOptions.audioSource,
          videoSource: roomOptions.videoSource,
          isVideoRecordingEnabled: videoRecording,
          isVideoEnabled: videoEnabled,
          room: url && isWebSocketUrl(url) ? 'websocket' : 'daily',
        },
        errorType: 'daily-call-object-creation-error',
      },
    );

    // Registered before join: a recording started by the meeting token can begin while joining.
    let recordingRequested = 0;
    if (videoRecording) {
      const off = room.on('recording-started', () => {
        off();
        const delaySeconds = (Date.now() - recordingRequested) / 1000;
        progress({ stage: 'video-recording-started', status: 'completed', metadata: { delaySeconds } });
        if (call.joinedRoom) {
          room.sendAppMessage(
            JSON.stringify({
              type: 'control',
              control: 'say-first-message',
              videoRecordingStartDelaySeconds: delaySeconds,
            }),
          );
        }
      });
      call.hold(off);
    }

    const isMobile = env.isMobile();
    await stage(
      'mobile-permissions',
      async () => {
        if (isMobile) await sleep(MOBILE_JOIN_DELAY_MS, signal);
      },
      {
        metadata: { isMobile },
        completed: () => ({ action: isMobile ? 'permissions-wait' : 'skipped-not-mobile' }),
      },
    );

    recordingRequested = Date.now();
    await stage(
      'daily-call-join',
      async () => {
        await room.join({
          url: url as string,
          ...(callToken ? { token: callToken } : {}),
          subscribeToTracksAutomatically: false,
        });
        // A join that settles after stop() is left by the teardown's destroy, not marked joined.
        if (signal.aborted) return;
        call.markJoined({ startedMuted: env.roomOptions.startAudioOff ?? false });
      },
      { errorType: 'daily-call-join-error' },
    );

    if (videoRecording && callToken) {
      // The meeting token started the recording at join: nothing to ask for.
      await stage('video-recording-setup', () => undefined, {
        completed: () => ({ action: 'auto-started-via-meeting-token' }),
      });
    } else if (videoRecording) {
      await optionalStage('video-recording-setup', 'video-recording-setup-error', () => {
        recordingRequested = Date.now();
        room.startRecording(RECORDING_LAYOUT);
      });
    } else {
      await stage('video-recording-setup', () => undefined, {
        completed: () => ({ action: 'skipped-not-enabled' }),
      });
    }

    await optionalStage('audio-observer-setup', 'audio-observer-setup-error', () =>
      room.startRemoteAudioLevelObserver(REMOTE_AUDIO_LEVEL_INTERVAL_MS),
    );

    await optionalStage('audio-processing-setup', 'audio-processing-setup-error', () =>
      room.setAudioProcessor('noise-cancellation'),
    );

    // The microphone level costs an AudioContext for the whole call: only when someone listens
    // (apps adding a listener later call startLocalAudioLevelObserver()). After noise
    // cancellation settled, because it replaces the microphone track.
    if (call.wantsLocalLevels()) {
      room
        .startLocalAudioLevelObserver(REMOTE_AUDIO_LEVEL_INTERVAL_MS)
        .catch((error: unknown) => call.emit('local-audio-level-observer-error', serializeError(error)));
    }

    if (signal.aborted) throw signal.reason as Error;
    call.markLive();
    call.emit('call-start-success', {
      totalDuration: Date.now() - started,
      callId: created.id ?? 'unknown',
      timestamp: now(),
    });
    return created;
  } catch (error) {
    // Over from here on: a start() from a call-start-failed listener (a retry) waits for this
    // call's teardown instead of being refused as already started.
    call.markEnded();
    const cause = error instanceof StageError ? error.original : error;
    const cancelled = error instanceof StartCancelledError && error.byUser;
    const failed = {
      stage: current,
      totalDuration: Date.now() - started,
      error: cancelled ? `The call start was cancelled: ${error.message}` : messageOf(cause),
      errorStack: cause instanceof Error && cause.stack ? cause.stack : 'No stack trace available',
      ...(isVapiApiError(cause) ? { errorStatus: cause.status, errorBody: cause.body } : {}),
      timestamp: now(),
      context: {
        ...request.context,
        isReconnect,
        cancelled,
        callId: webCall?.id ?? 'unknown',
        hasVideoRecording: webCall?.artifactPlan?.videoRecordingEnabled ?? false,
        voiceProvider: webCall?.assistant?.voice?.provider ?? 'unknown',
        isMobile: env.isMobile(),
      },
    };
    call.emit('call-start-failed', failed);
    if (!cancelled) {
      call.emit('error', {
        type: isReconnect ? 'reconnect-error' : 'start-method-error',
        stage: current,
        error: serializeError(cause),
        totalDuration: failed.totalDuration,
        timestamp: failed.timestamp,
        context: failed.context,
      });
    }
    await call.teardown();
    return null;
  }
}
