import { useCallback, useEffect, useReducer, useRef } from 'react';
import { chatReducer, initialChatState, type ChatState } from './chat-state';
import { loadChat, pageSessionStorage, saveChat } from './chat-storage';
import { sendWebChat, WebChatError } from './web-chat';

export interface UseWebChatOptions {
  assistantId: string;
  /** The provider's public key; null when the site has none (nothing can be sent then). */
  publicKey: string | null;
  apiBaseUrl: string;
  /** Tests pass a fake. */
  fetch?: typeof fetch;
  /** Tests pass a fake; default: the page's sessionStorage. */
  storage?: Storage | null;
}

export type SendResult = 'answered' | 'failed' | 'aborted';

export interface WebChat {
  state: ChatState;
  /** Sends one message (already checked with checkInput); resolves once it is answered or failed. */
  send: (input: string) => Promise<SendResult>;
  /** Forgets the conversation and its session: the next message starts a new one. */
  reset: () => void;
  dismissError: () => void;
}

const NOT_CONFIGURED = 'Text chat is not configured on this site yet.';

/**
 * One text conversation with an assistant through the provider's web chat. The conversation and
 * its session are read from sessionStorage once, on mount (mount one per assistant), and written
 * back after every answer; a request still running when the panel closes is aborted.
 */
export function useWebChat({
  assistantId,
  publicKey,
  apiBaseUrl,
  fetch,
  storage,
}: UseWebChatOptions): WebChat {
  const store = storage === undefined ? pageSessionStorage() : storage;
  const [state, dispatch] = useReducer(chatReducer, null, () =>
    initialChatState(loadChat(store, assistantId)),
  );
  const inFlight = useRef<AbortController | null>(null);
  // The session as of the last answer, for the next request (a ref: send must not go stale).
  const sessionId = useRef(state.sessionId);

  useEffect(() => {
    sessionId.current = state.sessionId;
    saveChat(store, assistantId, { sessionId: state.sessionId, messages: state.messages });
  }, [store, assistantId, state.sessionId, state.messages]);

  useEffect(() => () => inFlight.current?.abort(), []);

  const send = useCallback(
    async (input: string): Promise<SendResult> => {
      if (inFlight.current) return 'aborted';
      if (!publicKey) {
        dispatch({ type: 'failed', message: NOT_CONFIGURED });
        return 'failed';
      }
      const controller = new AbortController();
      inFlight.current = controller;
      dispatch({ type: 'send', input });
      try {
        const reply = await sendWebChat(
          { apiBaseUrl, publicKey, assistantId },
          { input, sessionId: sessionId.current },
          { fetch, signal: controller.signal },
        );
        if (controller.signal.aborted) return 'aborted';
        sessionId.current = reply.sessionId ?? sessionId.current;
        dispatch({
          type: 'answered',
          input,
          answer: reply.answer,
          sessionId: reply.sessionId,
          chatId: reply.id,
        });
        return 'answered';
      } catch (error) {
        if (controller.signal.aborted) {
          dispatch({ type: 'aborted' });
          return 'aborted';
        }
        const message =
          error instanceof WebChatError ? error.message : 'Something went wrong. Please try again.';
        dispatch({ type: 'failed', message });
        return 'failed';
      } finally {
        if (inFlight.current === controller) inFlight.current = null;
      }
    },
    [apiBaseUrl, publicKey, assistantId, fetch],
  );

  const reset = useCallback(() => {
    inFlight.current?.abort();
    sessionId.current = null;
    dispatch({ type: 'reset' });
  }, []);

  const dismissError = useCallback(() => dispatch({ type: 'dismiss-error' }), []);

  return { state, send, reset, dismissError };
}
