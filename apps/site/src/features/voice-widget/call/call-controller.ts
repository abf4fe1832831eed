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
  microphoneProblem,
  widgetReducer,
  type WidgetAction,
  type WidgetState,
} from '../lib/widget-state';
import { createSdkHolder, listenToSdk, type SdkHolder } from './sdk-link';

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
  /** The provider's id of the latest call started (null before one): for an answer by mail after it. */
  readonly lastCallId: string | null;
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

const ignore = () => {};

/** Loads the SDK if need be, waits for a call being left, and starts the call. */
async function startCall(
  { publicKey, assistantId }: CallSettings,
  sdk: SdkHolder,
  getClient: (publicKey: string) => Promise<VoiceClient | null>,
  dispatch: (action: WidgetAction) => void,
  current: () => boolean,
  onStarted: (callId: string) => void,
) {
  if (!publicKey) {
    dispatch({ type: 'failed', reason: 'not-configured' });
    return;
  }
  let client: VoiceClient | null;
  try {
    client = await getClient(publicKey);
  } catch {
    if (current()) dispatch({ type: 'failed', reason: 'load' });
    return;
  }
  if (!client || !current()) return;
  await sdk.stopping;
  if (!current()) return;
  try {
    const call = await client.start(assistantId);
    if (call === null && current()) dispatch({ type: 'failed', reason: 'start' });
    const id = (call as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && current()) onStarted(id);
  } catch (error) {
    if (!current()) return;
    const problem = microphoneProblem(error);
    dispatch(problem ? { type: 'microphone-failed', problem } : { type: 'failed', reason: 'start' });
  }
}

export function createCallController(initial: CallSettings): CallController {
  let settings = initial;
  let state = initialWidgetState;
  const listeners = new Set<() => void>();
  const messages = new MessageFeed();
  const sdk = createSdkHolder();
  // Each engage is an attempt; a cancelled or ended attempt's late results are dropped.
  let attempt = 0;
  // The attempt engaged before the public key arrived, to start when it does.
  let awaitingKey = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastCallId: string | null = null;

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
        void sdk.client?.stop().catch(ignore);
      }, CONNECT_TIMEOUT_MS);
    else if (next.status === 'idle' && next.notice?.kind === 'ended' && next.notice.by === 'assistant')
      timer = setTimeout(() => dispatch({ type: 'dismiss' }), CALL_ENDED_NOTICE_MS);
  }

  const getClient = (publicKey: string) =>
    sdk.get(settings, publicKey, (created: VoiceClient) =>
      listenToSdk(created, { dispatch, messages, reportable: () => sdk.stopping === null }),
    );

  /** The start of attempt `mine`; its results count while it is still the current attempt. */
  const start = (mine: number) =>
    startCall(
      settings,
      sdk,
      getClient,
      dispatch,
      () => mine === attempt && !sdk.detached,
      (id) => {
        lastCallId = id;
      },
    );

  const leavePage = () => void sdk.client?.stop().catch(ignore);

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: () => state,
    messages,
    get lastCallId() {
      return lastCallId;
    },
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
      lastCallId = null;
      if (settings.publicKey === undefined) awaitingKey = mine;
      else void start(mine);
    },
    cancel() {
      if (state.status !== 'connecting') return;
      attempt += 1;
      dispatch({ type: 'cancel' });
      sdk.stop();
    },
    hangUp() {
      attempt += 1;
      dispatch({ type: 'hang-up' });
      sdk.stop();
    },
    toggleMute() {
      const { client } = sdk;
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
      const { client } = sdk;
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
      sdk.detached = false;
      scheduleFor(state); // a remount (StrictMode's) keeps the state's deadline
      // Also when the page may be kept for back/forward: a frozen page cannot carry on a call.
      window.addEventListener('pagehide', leavePage);
    },
    detach() {
      window.removeEventListener('pagehide', leavePage);
      clearTimeout(timer);
      sdk.drop();
    },
  };
}
