import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { MessageFeed } from '../lib/message-feed';
import type { LoadVoiceSdk, VoiceClient } from '../lib/voice-client';
import {
  CALL_ENDED_NOTICE_MS,
  CONNECT_TIMEOUT_MS,
  initialWidgetState,
  isFatalError,
  microphoneProblem,
  widgetReducer,
  type WidgetState,
} from '../lib/widget-state';

export interface UseVoiceCallOptions {
  assistantId: string;
  /**
   * The provider's public key; null when the site has none configured, undefined while it is still
   * on its way (the members key): an engage meanwhile shows CONNECTING... and starts once it arrives.
   */
  publicKey: string | null | undefined;
  apiBaseUrl: string;
  loadSdk: LoadVoiceSdk;
}

export interface VoiceCall {
  state: WidgetState;
  /** The assistant's messages of the current call (transcripts…), for the captions. */
  messages: MessageFeed;
  engage: () => void;
  /** Abandons CONNECTING... at once. */
  cancel: () => void;
  hangUp: () => void;
  toggleMute: () => void;
  /** Sends a typed question to the assistant during the call: the text sent, or null if it was not. */
  sendText: (text: string) => string | null;
  dismiss: () => void;
  openChat: () => void;
  closeChat: () => void;
}

/** The longest question the widget sends in one message. */
export const MAX_TYPED_CHARS = 1_000;
/** How often the microphone's level is sampled for the input meter. */
const INPUT_LEVEL_INTERVAL_MS = 100;

const ignore = () => {};

/**
 * One voice SDK instance per page: created on the first engage (the SDK and its call library load
 * then), reused for later calls, and torn down when the component unmounts or the page is hidden
 * for good, so no call outlives its page. All SDK events enter through the listeners set up here.
 */
export function useVoiceCall({
  assistantId,
  publicKey,
  apiBaseUrl,
  loadSdk,
}: UseVoiceCallOptions): VoiceCall {
  const [state, dispatch] = useReducer(widgetReducer, initialWidgetState);
  const [messages] = useState(() => new MessageFeed());
  const client = useRef<VoiceClient | null>(null);
  const loading = useRef<Promise<VoiceClient | null> | null>(null);
  const disposed = useRef(false);
  // The status as of the last render, for handlers that must not act twice (engage while connecting).
  const status = useRef(state.status);
  // A hang-up or cancel in progress: its call-end and failures must not touch a call engaged after it.
  const stopping = useRef<Promise<void> | null>(null);
  // Each engage is an attempt; a cancelled or ended attempt's late results are dropped.
  const attempt = useRef(0);

  useEffect(() => {
    status.current = state.status;
  }, [state.status]);

  // A start that never reaches call-start (no answer from the room) must not hang on CONNECTING...
  useEffect(() => {
    if (state.status !== 'connecting') return;
    const timer = setTimeout(() => {
      attempt.current += 1;
      dispatch({ type: 'failed', reason: 'timeout' });
      void client.current?.stop().catch(ignore);
    }, CONNECT_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [state.status, dispatch]);

  // "Call ended" (the assistant or the network ended it) stays on screen for a few seconds.
  const notice = state.status === 'idle' ? state.notice : null;
  useEffect(() => {
    if (notice?.kind !== 'ended' || notice.by !== 'assistant') return;
    const timer = setTimeout(() => dispatch({ type: 'dismiss' }), CALL_ENDED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, dispatch]);

  useEffect(() => {
    disposed.current = false;
    // Also when the page may be kept for back/forward: a frozen page cannot carry on a call.
    const leave = () => void client.current?.stop().catch(ignore);
    window.addEventListener('pagehide', leave);
    return () => {
      disposed.current = true;
      window.removeEventListener('pagehide', leave);
      const current = client.current;
      client.current = null;
      loading.current = null;
      if (current) {
        void current.stop().catch(ignore);
        current.removeAllListeners();
      }
    };
  }, []);

  const getClient = useCallback(async (): Promise<VoiceClient | null> => {
    if (client.current) return client.current;
    if (!publicKey) return null;
    loading.current ??= loadSdk().then((create) => {
      if (disposed.current) return null;
      const sdk = create(publicKey, apiBaseUrl);
      // Ends and failures while a hang-up or cancel is stopping the call belong to the call being
      // left: the widget has moved on.
      const reportable = () => stopping.current === null;
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
        // The SDK may turn the microphone back on by itself (its noise-cancellation
        // fallback); the level arrives ten times a second, so the mute button follows within 100 ms.
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
      client.current = sdk;
      return sdk;
    });
    try {
      return await loading.current;
    } catch (error) {
      loading.current = null;
      throw error;
    }
  }, [publicKey, apiBaseUrl, loadSdk, messages]);

  /** Stops the SDK's call (or its start); a call engaged meanwhile waits for this to finish. */
  const stopCall = useCallback(() => {
    const sdk = client.current;
    if (!sdk) return;
    const done: Promise<void> = sdk
      .stop()
      .catch(ignore)
      .finally(() => {
        if (stopping.current === done) stopping.current = null;
      });
    stopping.current = done;
  }, []);

  // The attempt that was engaged before the public key arrived, to start when it does.
  const awaitingKey = useRef(0);

  /** The start of attempt `mine`, with the key as of this render. */
  const start = useCallback(
    (mine: number) => {
      if (!publicKey) {
        dispatch({ type: 'failed', reason: 'not-configured' });
        return;
      }
      const current = () => mine === attempt.current && !disposed.current;
      void (async () => {
        let sdk: VoiceClient | null;
        try {
          sdk = await getClient();
        } catch {
          if (current()) dispatch({ type: 'failed', reason: 'load' });
          return;
        }
        if (!sdk || !current()) return;
        await stopping.current;
        if (!current()) return;
        try {
          const call = await sdk.start(assistantId);
          if (call === null && current()) dispatch({ type: 'failed', reason: 'start' });
        } catch (error) {
          if (!current()) return;
          const problem = microphoneProblem(error);
          dispatch(problem ? { type: 'microphone-failed', problem } : { type: 'failed', reason: 'start' });
        }
      })();
    },
    [assistantId, publicKey, getClient],
  );

  const engage = useCallback(() => {
    if (status.current !== 'idle') return;
    status.current = 'connecting';
    const mine = ++attempt.current;
    dispatch({ type: 'engage' });
    messages.clear();
    if (publicKey === undefined) awaitingKey.current = mine;
    else start(mine);
  }, [publicKey, start, messages]);

  // The key has arrived (or is known to be missing): the attempt waiting for it starts now, unless
  // it was cancelled or timed out meanwhile (each of those begins a new attempt).
  useEffect(() => {
    if (publicKey === undefined || awaitingKey.current === 0) return;
    const mine = awaitingKey.current;
    awaitingKey.current = 0;
    if (mine === attempt.current && status.current === 'connecting') start(mine);
  }, [publicKey, start]);

  const cancel = useCallback(() => {
    if (status.current !== 'connecting') return;
    status.current = 'idle';
    attempt.current += 1;
    dispatch({ type: 'cancel' });
    stopCall();
  }, [dispatch, stopCall]);

  const hangUp = useCallback(() => {
    attempt.current += 1;
    dispatch({ type: 'hang-up' });
    stopCall();
  }, [dispatch, stopCall]);

  const toggleMute = useCallback(() => {
    const sdk = client.current;
    if (!sdk) return;
    try {
      sdk.setMuted(!sdk.isMuted());
      dispatch({ type: 'muted', muted: sdk.isMuted() });
    } catch {
      // No call object (the call just ended): nothing to mute.
    }
  }, [dispatch]);

  const sendText = useCallback((text: string) => {
    const content = text.trim().slice(0, MAX_TYPED_CHARS);
    const sdk = client.current;
    if (!content || !sdk || status.current !== 'in-call') return null;
    try {
      sdk.send({ type: 'add-message', message: { role: 'user', content } });
    } catch {
      return null;
    }
    return content;
  }, []);

  const dismiss = useCallback(() => dispatch({ type: 'dismiss' }), [dispatch]);
  const openChat = useCallback(() => {
    if (status.current !== 'idle') return;
    status.current = 'chat';
    dispatch({ type: 'open-chat' });
  }, [dispatch]);
  const closeChat = useCallback(() => dispatch({ type: 'close-chat' }), [dispatch]);

  return {
    state,
    messages,
    engage,
    cancel,
    hangUp,
    toggleMute,
    sendText,
    dismiss,
    openChat,
    closeChat,
  };
}
