import {
  useEffect,
  useRef,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { FINE_POINTER, useMediaQuery } from '@/lib/use-media-query';
import { CloseIcon } from '../components/icons';
import { focusRing } from '../components/widget-styles';
import type { ChatState } from './chat-state';
import { MAX_INPUT_CHARS } from './web-chat';

// The text chat's parts (chat-panel.tsx composes them).

/** Escape anywhere in the panel closes it (a native listener: the section is not a control). */
export function useEscapeToClose(root: RefObject<HTMLElement | null>, onClose: () => void) {
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);
  useEffect(() => {
    const panel = root.current;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.isComposing) return;
      event.preventDefault();
      event.stopPropagation();
      close.current();
    };
    panel?.addEventListener('keydown', onKeyDown);
    return () => panel?.removeEventListener('keydown', onKeyDown);
  }, [root]);
}

/** Enter sends, Shift+Enter starts a new line (and Enter while composing a character does neither). */
export function enterSends(event: ReactKeyboardEvent<HTMLTextAreaElement>, submit: () => void): void {
  if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
  event.preventDefault();
  submit();
}

/** The title, "New conversation" once there is one, and Close. */
export function ChatHeader(props: {
  titleId: string;
  title: string;
  canStartOver: boolean;
  onStartOver: () => void;
  onClose: () => void;
}) {
  const { titleId, title, canStartOver, onStartOver, onClose } = props;
  return (
    <header className="flex items-center gap-2 border-b border-white/10 py-2 pr-2 pl-4">
      {/* Wraps rather than cuts: with "New conversation" beside it a long name no longer fits. */}
      <h2 id={titleId} className="min-w-0 flex-1 text-sm font-semibold [overflow-wrap:anywhere]">
        {title}
      </h2>
      {canStartOver && (
        <button
          type="button"
          onClick={onStartOver}
          className={`rounded px-2 py-1 text-xs text-slate-300 hover:text-white ${focusRing}`}
        >
          New conversation
        </button>
      )}
      <button
        type="button"
        onClick={onClose}
        aria-label="Close text chat"
        className={`rounded p-1 text-slate-300 hover:text-white ${focusRing}`}
      >
        <CloseIcon className="size-5" />
      </button>
    </header>
  );
}

/** The messages, newest at the bottom, and the answer on its way. */
export function ConversationList(props: { state: ChatState; speaker: string; lang: string | undefined }) {
  const { state, speaker, lang } = props;
  const listRef = useRef<HTMLOListElement>(null);
  // Newest at the bottom, in view.
  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [state.messages.length, state.pending]);
  return (
    <ol
      ref={listRef}
      // Focusable so the conversation scrolls by keyboard (axe: scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      aria-label="Conversation"
      aria-busy={state.pending !== null}
      className={`flex min-h-24 flex-1 flex-col gap-2 overflow-y-auto px-4 py-3 text-sm ${focusRing}`}
    >
      {state.messages.length === 0 && state.pending === null && (
        <li className="text-slate-300">Ask a question: the answer appears here.</li>
      )}
      {state.messages.map((message, index) => (
        <Bubble
          key={index}
          from={message.role}
          label={message.role === 'user' ? 'You:' : `${speaker}:`}
          lang={lang}
        >
          {message.content}
        </Bubble>
      ))}
      {state.pending !== null && (
        <>
          <Bubble from="user" label="You:" lang={lang}>
            {state.pending}
          </Bubble>
          <Bubble from="assistant" label={`${speaker} is answering…`}>
            <span aria-hidden="true">…</span>
          </Bubble>
        </>
      )}
    </ol>
  );
}

/** The Enter hint (for mouse-and-keyboard devices) and the character count. */
export function BoxFooter({
  countId,
  length,
  tooLong,
}: {
  countId: string;
  length: number;
  tooLong: boolean;
}) {
  // A phone's keyboard has no Shift+Enter: the hint is for mouse-and-keyboard devices.
  const keyboardLikely = useMediaQuery(FINE_POINTER);
  return (
    <p className="flex justify-between gap-2 text-xs text-slate-400">
      <span>{keyboardLikely ? 'Enter sends · Shift+Enter for a new line' : ''}</span>
      <span id={countId} className={tooLong ? 'font-semibold text-red-300' : undefined}>
        {length.toLocaleString('en')} / {MAX_INPUT_CHARS.toLocaleString('en')}
        <span className="sr-only"> characters</span>
      </span>
    </p>
  );
}

/** One message; `label` says who speaks, for screen readers (the colours say it on screen). */
function Bubble({
  from,
  label,
  lang,
  children,
}: {
  from: 'user' | 'assistant';
  label: string;
  lang?: string | undefined;
  children: ReactNode;
}) {
  const mine = from === 'user';
  return (
    <li
      className={`max-w-[85%] rounded-2xl px-3 py-2 break-words whitespace-pre-wrap ${
        mine ? 'self-end bg-sky-700 text-white' : 'self-start bg-white/10 text-white'
      }`}
    >
      <span className="sr-only">{label} </span>
      <span lang={lang}>{children}</span>
    </li>
  );
}

/** What the assistant just said, for screen readers. */
export function Said({ speaker, text, lang }: { speaker: string; text: string; lang: string | undefined }) {
  return (
    <>
      {speaker} says: <span lang={lang}>{text}</span>
    </>
  );
}

/** Send: aria-disabled rather than disabled, so it keeps its place in the tab order. */
export function SendButton({ disabled }: { disabled: boolean }) {
  return (
    <button
      type="submit"
      aria-disabled={disabled}
      className={`rounded-full px-4 py-2 text-sm font-semibold ${focusRing} ${
        disabled
          ? 'cursor-not-allowed bg-slate-600 text-slate-200'
          : 'bg-white text-slate-950 hover:bg-sky-100'
      }`}
    >
      Send
    </button>
  );
}
