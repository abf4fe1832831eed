/**
 * The web-call start routine: eight stages, each reported as started and then
 * completed or failed with its duration, then `call-start-success` or `call-start-failed`.
 *
 * Every await races the call's abort signal, so `stop()` (or the room ending) cancels the start
 * at any stage: the HTTP request is aborted, a room that was created is left and destroyed, and
 * `start()` resolves null (the official SDK joined the call anyway).
 * @module
 */
import { isVapiApiError, sleep, type CreateWebCallDTO, type WebCallCreator } from './api.js';
import { REMOTE_AUDIO_LEVEL_INTERVAL_MS, type LiveCall } from './call.js';
import { messageOf, serializeError, StartCancelledError } from './errors.js';
import { now } from './events.js';
import { joinTarget, RECORDING_LAYOUT } from './join-target.js';
import { createRoomFor, isWebSocketUrl } from './rooms/choose.js';
import type { DailyFactoryLike } from './rooms/daily.js';
import type { Room, RoomOptions } from './rooms/types.js';
import { StageError, stageRunner } from './start-stages.js';
import type { JoinableCall, StartCallOptions } from './types.js';

/** Wait before joining on mobile, so the permission prompt settles. */
export const MOBILE_JOIN_DELAY_MS = 1000;

export interface StartEnvironment {
  /** POST /call/web with the instance's key (the client is loaded on first use). */
  createWebCall: WebCallCreator;
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

type Stages = ReturnType<typeof stageRunner>;

/** Tells the room to greet once the recording has started, with how long it took. */
function announceRecordingStart(
  call: LiveCall,
  room: Room,
  progress: Stages['progress'],
  requestedAt: () => number,
) {
  const off = room.on('recording-started', () => {
    off();
    const delaySeconds = (Date.now() - requestedAt()) / 1000;
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

/** The video recording stage: started by the meeting token, asked for, or skipped. */
async function setUpRecording(
  room: Room,
  { videoRecording, callToken }: { videoRecording: boolean; callToken: string | undefined },
  stage: Stages['stage'],
  optionalStage: Stages['optionalStage'],
  onRequested: () => void,
) {
  if (videoRecording && callToken) {
    // The meeting token started the recording at join: nothing to ask for.
    await stage('video-recording-setup', () => undefined, {
      completed: () => ({ action: 'auto-started-via-meeting-token' }),
    });
  } else if (videoRecording) {
    await optionalStage('video-recording-setup', 'video-recording-setup-error', () => {
      onRequested();
      room.startRecording(RECORDING_LAYOUT);
    });
  } else {
    await stage('video-recording-setup', () => undefined, {
      completed: () => ({ action: 'skipped-not-enabled' }),
    });
  }
}

/** The remote level observer, noise cancellation, and the microphone level when someone listens. */
async function setUpAudio(call: LiveCall, room: Room, optionalStage: Stages['optionalStage']) {
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
}

/** The start failed (or was cancelled): `call-start-failed`, and `error` unless the user cancelled. */
function reportStartFailure(
  call: LiveCall,
  error: unknown,
  at: {
    stage: ReturnType<Stages['currentStage']>;
    started: number;
    context: Record<string, unknown>;
    isReconnect: boolean;
    webCall: JoinableCall | undefined;
    isMobile: boolean;
  },
) {
  // Over from here on: a start() from a call-start-failed listener (a retry) waits for this
  // call's teardown instead of being refused as already started.
  call.markEnded();
  const cause = error instanceof StageError ? error.original : error;
  const cancelled = error instanceof StartCancelledError && error.byUser;
  const failed = {
    stage: at.stage,
    totalDuration: Date.now() - at.started,
    error: cancelled ? `The call start was cancelled: ${error.message}` : messageOf(cause),
    errorStack: cause instanceof Error && cause.stack ? cause.stack : 'No stack trace available',
    ...(isVapiApiError(cause) ? { errorStatus: cause.status, errorBody: cause.body } : {}),
    timestamp: now(),
    context: {
      ...at.context,
      isReconnect: at.isReconnect,
      cancelled,
      callId: at.webCall?.id ?? 'unknown',
      hasVideoRecording: at.webCall?.artifactPlan?.videoRecordingEnabled ?? false,
      voiceProvider: at.webCall?.assistant?.voice?.provider ?? 'unknown',
      isMobile: at.isMobile,
    },
  };
  call.emit('call-start-failed', failed);
  if (!cancelled) {
    call.emit('error', {
      type: at.isReconnect ? 'reconnect-error' : 'start-method-error',
      stage: at.stage,
      error: serializeError(cause),
      totalDuration: failed.totalDuration,
      timestamp: failed.timestamp,
      context: failed.context,
    });
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
  let webCall: JoinableCall | undefined = request.kind === 'reconnect' ? request.webCall : undefined;
  const isReconnect = request.kind === 'reconnect';

  const { stage, optionalStage, progress, currentStage } = stageRunner(call);

  try {
    await stage('initialization', () => env.after, {
      metadata: { ...request.context, isReconnect },
    });

    if (request.kind === 'start') {
      webCall = await stage(
        'web-call-creation',
        (): Promise<JoinableCall> =>
          request.createCall
            ? request.createCall(request.body, { signal })
            : env.createWebCall(request.body, { signal }),
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
        const created = await createRoomFor(url, roomOptions, env.dailyFactory, webCall as JoinableCall);
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
    if (videoRecording) announceRecordingStart(call, room, progress, () => recordingRequested);

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

    await setUpRecording(room, { videoRecording, callToken }, stage, optionalStage, () => {
      recordingRequested = Date.now();
    });

    await setUpAudio(call, room, optionalStage);

    if (signal.aborted) throw signal.reason as Error;
    call.markLive();
    call.emit('call-start-success', {
      totalDuration: Date.now() - started,
      callId: created.id ?? 'unknown',
      timestamp: now(),
    });
    return created;
  } catch (error) {
    reportStartFailure(call, error, {
      stage: currentStage(),
      started,
      context: request.context,
      isReconnect,
      webCall,
      isMobile: env.isMobile(),
    });
    await call.teardown();
    return null;
  }
}
