/**
 * The call controller's SDK side: the one SDK client of a widget, and the SDK events it turns into
 * the state machine's actions.
 * @module
 */
import type { MessageFeed } from '../lib/message-feed';
import type { VoiceClient } from '../lib/voice-client';
import { isFatalError, microphoneProblem, type WidgetAction } from '../lib/widget-state';
import type { CallSettings } from './call-controller';

/** How often the microphone's level is sampled for the input meter. */
const INPUT_LEVEL_INTERVAL_MS = 100;

const ignore = () => {};

/**
 * Every SDK event the widget follows, as actions. `reportable` is false while a hang-up or cancel
 * stops the call: that call's end and failures are the call being left, the widget has moved on.
 */
export function listenToSdk(
  sdk: VoiceClient,
  {
    dispatch,
    messages,
    reportable,
  }: { dispatch: (action: WidgetAction) => void; messages: MessageFeed; reportable: () => boolean },
) {
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

/**
 * The widget's one SDK client: created on the first start (the SDK loads then), kept for later
 * calls, dropped when the widget leaves the page.
 */
export function createSdkHolder() {
  let client: VoiceClient | null = null;
  let loading: Promise<VoiceClient | null> | null = null;
  // A hang-up or cancel in progress: its call-end and failures must not touch a call engaged after it.
  let stopping: Promise<void> | null = null;
  const holder = {
    get client() {
      return client;
    },
    get stopping() {
      return stopping;
    },
    /** The widget left the page: a client still loading is not created. */
    detached: false,
    async get(
      { loadSdk, apiBaseUrl }: CallSettings,
      publicKey: string,
      listen: (sdk: VoiceClient) => void,
    ): Promise<VoiceClient | null> {
      if (client) return client;
      loading ??= loadSdk().then((create) => {
        if (holder.detached) return null;
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
    },
    /** Stops the call (or its start); a call engaged meanwhile waits for this to finish. */
    stop() {
      if (!client) return;
      const done: Promise<void> = client
        .stop()
        .catch(ignore)
        .finally(() => {
          if (stopping === done) stopping = null;
        });
      stopping = done;
    },
    drop() {
      holder.detached = true;
      const current = client;
      client = null;
      loading = null;
      if (current) {
        void current.stop().catch(ignore);
        current.removeAllListeners();
      }
    },
  };
  return holder;
}

export type SdkHolder = ReturnType<typeof createSdkHolder>;
