import { useCallback, useLayoutEffect, useReducer } from 'react';
import { conversationReducer, emptyConversation, type Conversation } from '../lib/conversation';
import type { FeedItem, MessageFeed } from '../lib/message-feed';

interface State {
  conversation: Conversation;
  /** The last feed item applied: a replayed item is not applied twice. */
  seq: number;
}

type Action = { type: 'item'; item: FeedItem } | { type: 'typed'; text: string };

function reducer(state: State, action: Action): State {
  if (action.type === 'typed')
    return { ...state, conversation: conversationReducer(state.conversation, action) };
  if (action.item.seq <= state.seq) return state;
  return {
    conversation: conversationReducer(state.conversation, { type: 'message', message: action.item.message }),
    seq: action.item.seq,
  };
}

/**
 * The call's conversation, built from the SDK's messages (the feed, replayed from the call's start
 * when the panel mounts late) and the questions typed in it. Lives in the lazily loaded call panel,
 * so the reducer is not part of the landing page's first JavaScript.
 */
export function useConversation(feed: MessageFeed) {
  const [state, dispatch] = useReducer(reducer, { conversation: emptyConversation, seq: 0 });
  // In the commit that mounts the panel, not after paint: what was said before the panel loaded is
  // on its first frame (no flash of empty captions), and nothing said meanwhile waits unseen.
  useLayoutEffect(() => feed.subscribe((item) => dispatch({ type: 'item', item })), [feed]);
  const addTyped = useCallback((text: string) => dispatch({ type: 'typed', text }), []);
  return { conversation: state.conversation, addTyped };
}
