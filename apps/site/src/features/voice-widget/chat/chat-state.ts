import type { ChatMessage, StoredChat } from './chat-storage';

/**
 * The text conversation as the panel shows it: the finished exchanges, the message on its way (at
 * most one) and the last error. Only finished exchanges are stored, so a reload never shows a
 * question without its answer.
 */
export interface ChatState extends StoredChat {
  /** The visitor's message waiting for its answer. */
  pending: string | null;
  error: string | null;
  /** The newest answer, for the screen reader's live region (empty for a restored conversation). */
  announcement: string;
  /** The provider's id of the newest answered turn (null for a restored conversation). */
  lastChatId: string | null;
}

export type ChatAction =
  | { type: 'send'; input: string }
  | { type: 'answered'; input: string; answer: string; sessionId: string | null; chatId?: string }
  | { type: 'failed'; message: string }
  | { type: 'aborted' }
  | { type: 'dismiss-error' }
  | { type: 'reset' };

export function initialChatState(stored: StoredChat): ChatState {
  return { ...stored, pending: null, error: null, announcement: '', lastChatId: null };
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'send':
      return state.pending === null ? { ...state, pending: action.input, error: null } : state;
    case 'answered': {
      const turn: ChatMessage[] = [
        { role: 'user', content: action.input },
        { role: 'assistant', content: action.answer },
      ];
      return {
        ...state,
        // The provider may omit the session on a later turn: keep the one the conversation has.
        sessionId: action.sessionId ?? state.sessionId,
        messages: [...state.messages, ...turn],
        pending: null,
        error: null,
        announcement: action.answer,
        lastChatId: action.chatId ?? null,
      };
    }
    case 'failed':
      return { ...state, pending: null, error: action.message };
    case 'aborted':
      return { ...state, pending: null };
    case 'dismiss-error':
      return { ...state, error: null };
    case 'reset':
      return initialChatState({ sessionId: null, messages: [] });
  }
}
