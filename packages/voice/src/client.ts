/**
 * `Vapi`: the public class, a drop-in for `@vapi-ai/web`'s. Thin: the start routine, the live
 * call and the rooms do the work. Nothing here touches browser globals until a call starts.
 * @module
 */
import { webCallCreator, type CreateWebCallDTO, type JsonObject, type WebCallCreator } from './api.js';
import { LiveCall } from './call.js';
import {
  DEFAULT_API_BASE_URL,
  isMobileBrowser,
  normalizeDailyCallConfig,
  normalizeDailyCallObject,
  type DailyCallConfig,
  type DailyCallObjectOptions,
  type VapiOptions,
} from './client-options.js';
import { NO_CALL, VoiceStateError } from './errors.js';
import { now } from './events.js';
import { joinTarget } from './join-target.js';
import { RoomControls } from './room-controls.js';
import { runStart, type StartEnvironment, type StartRequest } from './start-routine.js';
import type {
  AssistantOverrides,
  Call,
  CreateAssistantDTO,
  CreateSquadDTO,
  CreateWorkflowDTO,
  JoinableCall,
  StartCallOptions,
  VapiClientToServerMessage,
  WorkflowOverrides,
} from './types.js';
import {
  checkMessage,
  checkSay,
  failValidation as fail,
  MISSING_TARGET,
  VoiceValidationError,
} from './validation.js';

export class Vapi extends RoomControls {
  readonly #createWebCall: WebCallCreator;
  readonly #dailyConfig: DailyCallConfig;
  readonly #dailyCallObject: DailyCallObjectOptions;
  readonly #options: VapiOptions;
  #call: LiveCall | null = null;
  #volume: number | null = null;

  /**
   * @param publicKey the provider's public key (sent as the bearer token of POST /call/web)
   * @param apiBaseUrl the provider's API (default https://api.vapi.ai)
   * @param dailyCallConfig Daily's `dailyConfig` options
   * @param dailyCallObject Daily's call-object options
   * @param options Engage only: fetch, Daily factory and timers to use
   * @example
   * const vapi = new Vapi(publicKey);
   * vapi.on('call-start', () => console.log('talking'));
   * await vapi.start(assistantId);
   */
  constructor(
    publicKey: string,
    apiBaseUrl: string = DEFAULT_API_BASE_URL,
    dailyCallConfig?: DailyCallConfig,
    dailyCallObject?: DailyCallObjectOptions,
    options: VapiOptions = {},
  ) {
    super();
    // One API client per instance: two instances with different keys never mix them up.
    this.#createWebCall = webCallCreator({
      baseUrl: apiBaseUrl ?? DEFAULT_API_BASE_URL,
      token: publicKey,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#dailyConfig = normalizeDailyCallConfig(dailyCallConfig);
    this.#dailyCallObject = normalizeDailyCallObject(dailyCallObject);
    this.#options = options;
  }

  /**
   * Starts a web call with an assistant, squad or workflow (an id string or an inline object).
   * Resolves the created call, or null when the start failed or was cancelled by `stop()`
   * (`call-start-failed` says why). Rejects only when no assistant, squad or workflow is given.
   */
  async start(
    assistant?: CreateAssistantDTO | string,
    assistantOverrides?: AssistantOverrides,
    squad?: CreateSquadDTO | string,
    workflow?: CreateWorkflowDTO | string,
    workflowOverrides?: WorkflowOverrides,
    options?: StartCallOptions,
  ): Promise<Call | null> {
    if (!assistant && !squad && !workflow) {
      const error = new VoiceValidationError(MISSING_TARGET);
      this.emit('error', {
        type: 'validation-error',
        stage: 'input-validation',
        error: { message: error.message, name: error.name },
        timestamp: now(),
      });
      throw error;
    }
    // Inline definitions go to the provider as JSON, unmodelled: it validates them.
    const json = (value: object) => value as JsonObject;
    const body: CreateWebCallDTO = {};
    if (typeof assistant === 'string') body.assistantId = assistant;
    else if (assistant) body.assistant = json(assistant);
    if (assistantOverrides) body.assistantOverrides = json(assistantOverrides);
    if (typeof squad === 'string') body.squadId = squad;
    else if (squad) body.squad = json(squad);
    if (typeof workflow === 'string') body.workflowId = workflow;
    else if (workflow) body.workflow = json(workflow);
    if (workflowOverrides) body.workflowOverrides = json(workflowOverrides);
    if (options?.roomDeleteOnUserLeaveEnabled !== undefined) {
      body.roomDeleteOnUserLeaveEnabled = options.roomDeleteOnUserLeaveEnabled;
    }
    // A start resolves the provider's answer to POST /call/web, which is a full WebCall.
    return (await this.#run({
      kind: 'start',
      body,
      context: { hasAssistant: !!assistant, hasSquad: !!squad, hasWorkflow: !!workflow },
      createCall: options?.createCall,
    })) as Call | null;
  }

  /**
   * Joins an existing call again (one created with `roomDeleteOnUserLeaveEnabled: false`).
   * Rejects when a call is running, the call has no URL (`webCallUrl`, or a WebSocket call's
   * `transport.websocketCallUrl`), or joining fails.
   */
  async reconnect(webCall: JoinableCall): Promise<void> {
    if (this.#call && !this.#call.ended) {
      throw new VoiceStateError('Cannot reconnect while a call is already in progress. Call stop() first.');
    }
    // A provider WebSocket call (POST /call) has only transport.websocketCallUrl, which joinTarget takes.
    if (!webCall || typeof webCall !== 'object' || !joinTarget(webCall)) {
      throw new VoiceValidationError('webCallUrl is required for reconnection.');
    }
    const result = await this.#run({
      kind: 'reconnect',
      webCall,
      context: { callId: webCall.id ?? 'unknown' },
    });
    if (!result) throw new Error('Reconnecting to the call failed; see the call-start-failed event.');
  }

  async #run(request: StartRequest): Promise<JoinableCall | null> {
    const previous = this.#call;
    if (previous && !previous.ended) {
      this.emit('call-start-progress', {
        stage: 'validation',
        status: 'failed',
        timestamp: now(),
        metadata: { reason: 'already-started' },
      });
      return null;
    }
    const call = new LiveCall(
      {
        emit: (event, ...args) => this.emit(event, ...args),
        listenerCount: (event) => this.listenerCount(event),
        volume: () => this.#volume,
        ...(this.#options.timers ? { timers: this.#options.timers } : {}),
      },
      { startMuted: this.#dailyCallObject.startAudioOff ?? false },
    );
    this.#call = call;
    void call.finished.then(() => {
      if (this.#call === call) this.#call = null;
    });
    const env: StartEnvironment = {
      createWebCall: this.#createWebCall,
      // The previous call may still be leaving; Daily allows one call object at a time.
      ...(previous ? { after: previous.finished } : {}),
      ...(this.#options.dailyFactory ? { dailyFactory: this.#options.dailyFactory } : {}),
      roomOptions: {
        ...this.#options.browserApis,
        audioSource: this.#dailyCallObject.audioSource ?? true,
        ...(this.#dailyCallObject.startAudioOff !== undefined
          ? { startAudioOff: this.#dailyCallObject.startAudioOff }
          : {}),
        dailyConfig: this.#dailyConfig,
      },
      isMobile: this.#options.isMobile ?? isMobileBrowser,
    };
    return runStart(call, env, request);
  }

  /**
   * Stops the call, or cancels a start in progress at whatever stage it is. Resolves when the
   * room is left and everything the call added (audio elements, listeners, timers) is gone.
   */
  async stop(): Promise<void> {
    await this.#call?.end('stop() was called.', { byUser: true });
  }

  /** Asks the assistant to end the call for everyone, then stops. */
  async end(): Promise<void> {
    this.#call?.joinedRoom?.sendAppMessage(JSON.stringify({ type: 'end-call' }));
    await this.stop();
  }

  /** Sends a Live Call Control message to the assistant. Ignored (with a warning) without a joined call. */
  send(message: VapiClientToServerMessage): void {
    const problem = checkMessage(message);
    if (problem) fail(problem);
    const room = this.#call?.joinedRoom;
    if (!room) {
      console.warn(`[engage/voice] send('${message.type}') ignored: no call is joined.`);
      return;
    }
    room.sendAppMessage(JSON.stringify(message));
  }

  /** Makes the assistant say `message`. */
  say(
    message: string,
    endCallAfterSpoken?: boolean,
    interruptionsEnabled = false,
    interruptAssistantEnabled = false,
  ): void {
    const problem = checkSay(message, endCallAfterSpoken, interruptionsEnabled, interruptAssistantEnabled);
    if (problem) fail(problem);
    this.send({
      type: 'say',
      message,
      ...(endCallAfterSpoken !== undefined ? { endCallAfterSpoken } : {}),
      interruptionsEnabled,
      interruptAssistantEnabled,
    });
  }

  /**
   * Mutes or unmutes the microphone; while connecting, applied once joined.
   * Throws VoiceStateError ('Call object is not available.') without a call.
   */
  setMuted(muted: boolean): void {
    if (typeof muted !== 'boolean') fail(`setMuted() needs true or false, got ${typeof muted}.`);
    const call = this.#call;
    if (!call || call.ended) throw new VoiceStateError(NO_CALL);
    call.setMuted(muted);
  }

  /** Whether the microphone is muted; reflects `setMuted()` immediately. False without a call. */
  isMuted(): boolean {
    const call = this.#call;
    return !!call && !call.ended && call.muted;
  }

  /**
   * Sets the assistant's playback volume, 0 to 1 (clamped; non-finite values ignored). Remembered
   * across calls and applied before playback starts.
   */
  setVolume(volume: number): void {
    if (typeof volume !== 'number' || !Number.isFinite(volume)) return;
    this.#volume = Math.min(1, Math.max(0, volume));
    this.#call?.applyVolume(this.#volume);
  }

  protected currentCall(): LiveCall | null {
    return this.#call;
  }
}
