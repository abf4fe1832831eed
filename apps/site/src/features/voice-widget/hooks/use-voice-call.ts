import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { LoadVoiceSdk, VoiceClient } from '../lib/voice-client';
import {
  CONNECT_TIMEOUT_MS,
  initialWidgetState,
  isFatalError,
  microphoneProblem,
  widgetReducer,
  type WidgetState,
} from '../lib/widget-state';

export interface UseVoiceCallOptions {
  assistantId: string;
  /** The provider's public key; null when the site has none configured. */
  publicKey: string | null;
  apiBaseUrl: string;
  loadSdk: LoadVoiceSdk;
}

export interface VoiceCall {
  state: WidgetState;
  engage: () => void;
  hangUp: () => void;
  toggleMute: () => void;
  dismiss: () => void;
}

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
  const client = useRef<VoiceClient | null>(null);
  const loading = useRef<Promise<VoiceClient | null> | null>(null);
  const disposed = useRef(false);
  // The status as of the last render, for handlers that must not act twice (engage while connecting).
  const status = useRef(state.status);
  // A hang-up in progress: its call-end must not end a call engaged right after it.
  const stopping = useRef<Promise<void> | null>(null);

  useEffect(() => {
    status.current = state.status;
  }, [state.status]);

  // A start that never reaches call-start (no answer from the room) must not hang on CONNECTING...
  useEffect(() => {
    if (state.status !== 'connecting') return;
    const timer = setTimeout(() => {
      dispatch({ type: 'failed', reason: 'timeout' });
      void client.current?.stop().catch(ignore);
    }, CONNECT_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [state.status]);

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
      const stopOnProblem = (payload: unknown) => {
        const problem = microphoneProblem(payload);
        if (!problem) return false;
        dispatch({ type: 'microphone-failed', problem });
        void sdk.stop().catch(ignore);
        return true;
      };
      sdk.on('call-start', () => dispatch({ type: 'call-start' }));
      sdk.on('call-end', () => {
        if (!stopping.current) dispatch({ type: 'call-end' });
      });
      sdk.on('speech-start', () => dispatch({ type: 'speech', speaking: true }));
      sdk.on('speech-end', () => dispatch({ type: 'speech', speaking: false }));
      sdk.on('volume-level', (level) => {
        dispatch({ type: 'volume', level });
        // The SDK may turn the microphone back on by itself (its noise-cancellation fallback, SPEC
        // §4); the level arrives ten times a second, so the mute button follows within 100 ms.
        dispatch({ type: 'muted', muted: sdk.isMuted() });
      });
      sdk.on('camera-error', (payload) => {
        if (!stopOnProblem(payload)) dispatch({ type: 'microphone-failed', problem: 'unavailable' });
        void sdk.stop().catch(ignore);
      });
      sdk.on('error', (payload) => {
        if (stopOnProblem(payload) || !isFatalError(payload)) return;
        dispatch({ type: 'failed' });
        void sdk.stop().catch(ignore);
      });
      sdk.on('call-start-failed', (payload) => {
        if (!stopOnProblem(payload)) dispatch({ type: 'failed', reason: 'start' });
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
  }, [publicKey, apiBaseUrl, loadSdk]);

  const engage = useCallback(() => {
    if (status.current !== 'idle') return;
    status.current = 'connecting';
    dispatch({ type: 'engage' });
    if (!publicKey) {
      dispatch({ type: 'failed', reason: 'not-configured' });
      return;
    }
    void (async () => {
      let sdk: VoiceClient | null;
      try {
        sdk = await getClient();
      } catch {
        if (!disposed.current) dispatch({ type: 'failed', reason: 'load' });
        return;
      }
      if (!sdk || disposed.current) return;
      await stopping.current;
      try {
        const call = await sdk.start(assistantId);
        if (call === null) dispatch({ type: 'failed', reason: 'start' });
      } catch (error) {
        const problem = microphoneProblem(error);
        dispatch(problem ? { type: 'microphone-failed', problem } : { type: 'failed', reason: 'start' });
      }
    })();
  }, [assistantId, publicKey, getClient]);

  const hangUp = useCallback(() => {
    dispatch({ type: 'hang-up' });
    const sdk = client.current;
    if (!sdk) return;
    const done = sdk
      .stop()
      .catch(ignore)
      .finally(() => {
        if (stopping.current === done) stopping.current = null;
      });
    stopping.current = done;
  }, []);

  const toggleMute = useCallback(() => {
    const sdk = client.current;
    if (!sdk) return;
    try {
      sdk.setMuted(!sdk.isMuted());
      dispatch({ type: 'muted', muted: sdk.isMuted() });
    } catch {
      // No call object (the call just ended): nothing to mute.
    }
  }, []);

  const dismiss = useCallback(() => dispatch({ type: 'dismiss' }), []);

  return { state, engage, hangUp, toggleMute, dismiss };
}
