/**
 * The voice call, free of React: one SDK client per widget, created on the first ENGAGE (the SDK and
 * its call library load then) and reused for later calls. Every SDK event and every press enters
 * here and becomes a {@link WidgetAction}; the state machine (../lib/widget-state.ts) decides what the
 * visitor sees. React reads it through `subscribe`/`getSnapshot` (use-call.ts).
 * @module
 */
import { MessageFeed } from '../lib/message-feed';
import type { LoadVoiceSdk, VoiceClient } from '../lib/voice-client';
import {
  CALL_ENDED_NOTICE_MS,
  CONNECT_TIMEOUT_MS,
  initialWidgetState,
  isFatalError,
  microphoneProblem,
  widgetReducer,
  type WidgetAction,
  type WidgetState,
} from '../lib/widget-state';

export interface CallSettings {
  assistantId: string;
  /**
   * The provider's public key; null when the site has none configured, undefined while it is still
   * on its way (the members key): an ENGAGE meanwhile shows CONNECTING... and starts once it arrives.
   */
  publicKey: string | null | undefined;
  apiBaseUrl: string;
  loadSdk: LoadVoiceSdk;
}

export interface CallController {
  subscribe(listener: () => void): () => void;
  getSnapshot(): WidgetState;
  /** The assistant's messages of the current call (transcripts…), for the captions. */
  readonly messages: MessageFeed;
  /** New settings; a public key that arrives starts the ENGAGE waiting for it. */
  configure(settings: Partial<CallSettings>): void;
  engage(): void;
  /** Abandons CONNECTING... at once. */
  cancel(): void;
  hangUp(): void;
  toggleMute(): void;
  /** Sends a typed question to the assistant during the call: the text sent, or null if it was not. */
  sendText(text: string): string | null;
  dismiss(): void;
  openChat(): void;
  closeChat(): void;
  /** Starts listening to the page (its hiding ends the call); undone by {@link detach}. */
  attach(): void;
  /** Ends the call and drops the SDK client: the widget left the page. */
  detach(): void;
}

/** The longest question the widget sends in one message. */
export const MAX_TYPED_CHARS = 1_000;
/** How often the microphone's level is sampled for the input meter. */
const INPUT_LEVEL_INTERVAL_MS = 100;

const ignore = () => {};

export function createCallController(initial: CallSettings): CallController {
  let settings = initial;
  let state = initialWidgetState;
  const listeners = new Set<() => void>();
  const messages = new MessageFeed();
  let client: VoiceClient | null = null;
  let loading: Promise<VoiceClient | null> | null = null;
  let detached = false;
  // A hang-up or cancel in progress: its call-end and failures must not touch a call engaged after it.
  let stopping: Promise<void> | null = null;
  // Each engage is an attempt; a cancelled or ended attempt's late results are dropped.
  let attempt = 0;
  // The attempt engaged before the public key arrived, to start when it does.
  let awaitingKey = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function dispatch(action: WidgetAction) {
    const previous = state;
    state = widgetReducer(state, action);
    if (state === previous) return;
    scheduleFor(state);
    for (const listener of [...listeners]) listener();
  }

  /** The state's own deadline: CONNECTING... gives up, "Call ended" goes away. */
  function scheduleFor(next: WidgetState) {
    clearTimeout(timer);
    timer = undefined;
    if (next.status === 'connecting')
      timer = setTimeout(() => {
        attempt += 1;
        dispatch({ type: 'failed', reason: 'timeout' });
        void client?.stop().catch(ignore);
      }, CONNECT_TIMEOUT_MS);
    else if (next.status === 'idle' && next.notice?.kind === 'ended' && next.notice.by === 'assistant')
      timer = setTimeout(() => dispatch({ type: 'dismiss' }), CALL_ENDED_NOTICE_MS);
  }

  /** Ends and failures while a hang-up or cancel stops the call belong to the call being left. */
  const reportable = () => stopping === null;

  function listen(sdk: VoiceClient) {
    const stopOnProblem = (payload: unknown) => {
      const problem = microphoneProblem(payload);
      if (!problem) return false;
      dispatch({ type: 'microphone-failed', problem });
      void sdk.stop().catch(ignore);
      return true;
    };
    sdk.on('call-start', () => {
      dispatch({ type: 'call-start', at: Date.now() });
      // The input meter: the microphone's level, where the room can measure it.
      sdk.startLocalAudioLevelObserver(INPUT_LEVEL_INTERVAL_MS).catch(ignore);
    });
    sdk.on('call-end', () => {
      if (reportable()) dispatch({ type: 'call-end' });
    });
    sdk.on('speech-start', () => dispatch({ type: 'speech', speaking: true }));
    sdk.on('speech-end', () => dispatch({ type: 'speech', speaking: false }));
    sdk.on('volume-level', (level) => {
      dispatch({ type: 'volume', level });
      // The SDK may turn the microphone back on by itself (its noise-cancellation fallback); the
      // level arrives ten times a second, so the mute button follows within 100 ms.
      dispatch({ type: 'muted', muted: sdk.isMuted() });
    });
    sdk.on('local-volume-level', (level) => dispatch({ type: 'input-level', level }));
    sdk.on('message', (message) => messages.push(message));
    sdk.on('camera-error', (payload) => {
      if (!reportable()) return;
      if (!stopOnProblem(payload)) dispatch({ type: 'microphone-failed', problem: 'unavailable' });
      void sdk.stop().catch(ignore);
    });
    sdk.on('error', (payload) => {
      if (!reportable() || stopOnProblem(payload) || !isFatalError(payload)) return;
      dispatch({ type: 'failed' });
      void sdk.stop().catch(ignore);
    });
    sdk.on('call-start-failed', (payload) => {
      if (reportable() && !stopOnProblem(payload)) dispatch({ type: 'failed', reason: 'start' });
    });
  }

  async function getClient(publicKey: string): Promise<VoiceClient | null> {
    if (client) return client;
    const { loadSdk, apiBaseUrl } = settings;
    loading ??= loadSdk().then((create) => {
      if (detached) return null;
      const sdk = create(publicKey, apiBaseUrl);
      listen(sdk);
      client = sdk;
      return sdk;
    });
    try {
      return await loading;
    } catch (error) {
      loading = null;
      throw error;
    }
  }

  /** Stops the SDK's call (or its start); a call engaged meanwhile waits for this to finish. */
  function stopCall() {
    const sdk = client;
    if (!sdk) return;
    const done: Promise<void> = sdk
      .stop()
      .catch(ignore)
      .finally(() => {
        if (stopping === done) stopping = null;
      });
    stopping = done;
  }

  async function start(mine: number) {
    const { publicKey, assistantId } = settings;
    if (!publicKey) {
      dispatch({ type: 'failed', reason: 'not-configured' });
      return;
    }
    const current = () => mine === attempt && !detached;
    let sdk: VoiceClient | null;
    try {
      sdk = await getClient(publicKey);
    } catch {
      if (current()) dispatch({ type: 'failed', reason: 'load' });
      return;
    }
    if (!sdk || !current()) return;
    await stopping;
    if (!current()) return;
    try {
      const call = await sdk.start(assistantId);
      if (call === null && current()) dispatch({ type: 'failed', reason: 'start' });
    } catch (error) {
      if (!current()) return;
      const problem = microphoneProblem(error);
      dispatch(problem ? { type: 'microphone-failed', problem } : { type: 'failed', reason: 'start' });
    }
  }

  const leavePage = () => void client?.stop().catch(ignore);

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => state,
    messages,
    configure(next) {
      settings = { ...settings, ...next };
      // The key has arrived (or is known to be missing): the attempt waiting for it starts now,
      // unless it was cancelled or timed out meanwhile (each of those begins a new attempt).
      if (settings.publicKey === undefined || awaitingKey === 0) return;
      const mine = awaitingKey;
      awaitingKey = 0;
      if (mine === attempt && state.status === 'connecting') void start(mine);
    },
    engage() {
      if (state.status !== 'idle') return;
      const mine = ++attempt;
      dispatch({ type: 'engage' });
      messages.clear();
      if (settings.publicKey === undefined) awaitingKey = mine;
      else void start(mine);
    },
    cancel() {
      if (state.status !== 'connecting') return;
      attempt += 1;
      dispatch({ type: 'cancel' });
      stopCall();
    },
    hangUp() {
      attempt += 1;
      dispatch({ type: 'hang-up' });
      stopCall();
    },
    toggleMute() {
      if (!client) return;
      try {
        client.setMuted(!client.isMuted());
        dispatch({ type: 'muted', muted: client.isMuted() });
      } catch {
        // No call object (the call just ended): nothing to mute.
      }
    },
    sendText(text) {
      const content = text.trim().slice(0, MAX_TYPED_CHARS);
      if (!content || !client || state.status !== 'in-call') return null;
      try {
        client.send({ type: 'add-message', message: { role: 'user', content } });
      } catch {
        return null;
      }
      return content;
    },
    dismiss: () => dispatch({ type: 'dismiss' }),
    openChat() {
      if (state.status === 'idle') dispatch({ type: 'open-chat' });
    },
    closeChat: () => dispatch({ type: 'close-chat' }),
    attach() {
      detached = false;
      scheduleFor(state); // a remount (StrictMode's) keeps the state's deadline
      // Also when the page may be kept for back/forward: a frozen page cannot carry on a call.
      window.addEventListener('pagehide', leavePage);
    },
    detach() {
      detached = true;
      window.removeEventListener('pagehide', leavePage);
      clearTimeout(timer);
      const current = client;
      client = null;
      loading = null;
      if (current) {
        void current.stop().catch(ignore);
        current.removeAllListeners();
      }
    },
  };
}
