import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import { FINE_POINTER, useMediaQuery } from '@/lib/use-media-query';
import { CloseIcon } from '../components/icons';
import { useWebChat } from './use-web-chat';
import { checkInput, MAX_INPUT_CHARS } from './web-chat';

export interface ChatPanelProps {
  assistantId: string;
  /** For the panel's title and the speaker of answers ("the assistant" without it). */
  assistantName?: string;
  /** The provider's public key; null when the site has none configured. */
  publicKey: string | null;
  apiBaseUrl: string;
  /** Closes the panel (close button, Escape); the caller puts focus back on what opened it. */
  onClose: () => void;
  /** Why the panel opened: a microphone problem is said briefly at the top. */
  initialReason?: 'microphone-denied' | 'microphone-missing' | 'chosen';
  /** The conversation's language: of the messages and the box, not of the panel's own texts. */
  lang?: string;
  /** Tests pass fakes. */
  fetch?: typeof fetch;
  storage?: Storage | null;
}

const REASONS = {
  'microphone-denied': 'Microphone access is blocked — you can type instead.',
  'microphone-missing': 'No microphone was found — you can type instead.',
} as const;

const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300 motion-safe:transition-colors';

/**
 * A text conversation with the page's assistant through the provider's web chat, for visitors who
 * cannot or would rather not speak. Enter sends, Shift+Enter starts a new line; a message that
 * fails goes back into the box so it can be sent again; Escape closes. Lazy-loaded by the widget.
 */
export function ChatPanel({
  assistantId,
  assistantName,
  publicKey,
  apiBaseUrl,
  onClose,
  initialReason = 'chosen',
  lang,
  fetch,
  storage,
}: ChatPanelProps) {
  const { state, send, reset } = useWebChat({ assistantId, publicKey, apiBaseUrl, fetch, storage });
  const [draft, setDraft] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const root = useRef<HTMLElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const ids = useId();
  const keyboardLikely = useMediaQuery(FINE_POINTER);
  const speaker = assistantName ? `The ${assistantName}` : 'The assistant';
  const title = assistantName ? `Chat with the ${assistantName}` : 'Chat with the assistant';
  const tooLong = draft.trim().length > MAX_INPUT_CHARS;
  const pending = state.pending !== null;
  const reason = initialReason === 'chosen' ? null : REASONS[initialReason];

  useEffect(() => box.current?.focus(), []);

  // Escape anywhere in the panel closes it (a native listener: the section is not a control).
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
  }, []);

  // Newest at the bottom, in view.
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [state.messages.length, state.pending]);

  const submit = () => {
    if (pending) return;
    const checked = checkInput(draft);
    if (!checked.ok) {
      // An empty Enter is a slip, not a mistake worth a message.
      setInputError(draft.trim() ? checked.message : null);
      return;
    }
    setInputError(null);
    const typed = draft;
    setDraft('');
    box.current?.focus();
    void send(checked.input).then((result) => {
      // Not lost on failure: back in the box (before anything typed since), ready to send again.
      if (result === 'failed') setDraft((now) => (now.trim() ? `${typed.trimEnd()}\n${now}` : typed));
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const onBoxKeyDown = (event: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const startOver = () => {
    reset();
    setInputError(null);
    box.current?.focus();
  };

  const error = inputError ?? state.error;
  const describedBy = [`${ids}-count`, error ? `${ids}-error` : ''].filter(Boolean).join(' ');

  return (
    <section
      aria-labelledby={`${ids}-title`}
      ref={root}
      className="flex max-h-[min(32rem,calc(100dvh-6rem))] w-[min(24rem,calc(100vw-2rem))] flex-col overflow-hidden rounded-2xl border border-white/15 bg-slate-950/95 text-white shadow-xl backdrop-blur"
    >
      <header className="flex items-center gap-2 border-b border-white/10 py-2 pr-2 pl-4">
        {/* Wraps rather than cuts: with "New conversation" beside it a long name no longer fits. */}
        <h2 id={`${ids}-title`} className="min-w-0 flex-1 text-sm font-semibold [overflow-wrap:anywhere]">
          {title}
        </h2>
        {state.messages.length > 0 && (
          <button
            type="button"
            onClick={startOver}
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

      {reason && <p className="border-b border-white/10 px-4 py-2 text-sm text-amber-200">{reason}</p>}
      {!publicKey && (
        <p className="border-b border-white/10 px-4 py-2 text-sm text-amber-200">
          Text chat is not configured on this site yet.
        </p>
      )}

      <ol
        ref={list}
        // Focusable so the conversation scrolls by keyboard (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        aria-label="Conversation"
        aria-busy={pending}
        className={`flex min-h-24 flex-1 flex-col gap-2 overflow-y-auto px-4 py-3 text-sm ${focusRing}`}
      >
        {state.messages.length === 0 && !pending && (
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

      <p aria-live="polite" className="sr-only">
        {state.announcement && (
          <>
            {speaker} says: <span lang={lang}>{state.announcement}</span>
          </>
        )}
      </p>

      <form onSubmit={onSubmit} className="flex flex-col gap-1 border-t border-white/10 p-3">
        {error && (
          <p id={`${ids}-error`} role="alert" className="text-sm text-red-300">
            {error}
            {state.error && !inputError && ' Your message is back in the box to send again.'}
          </p>
        )}
        <label htmlFor={`${ids}-box`} className="sr-only">
          Type a message
        </label>
        <div className="flex items-end gap-2">
          <textarea
            ref={box}
            id={`${ids}-box`}
            lang={lang}
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              if (inputError) setInputError(null);
            }}
            onKeyDown={onBoxKeyDown}
            rows={2}
            placeholder="Type a message"
            aria-invalid={tooLong}
            aria-describedby={describedBy}
            className={`max-h-32 min-w-0 flex-1 resize-none rounded-lg border bg-slate-900 px-3 py-2 text-sm text-white placeholder:text-slate-400 ${
              tooLong ? 'border-red-400' : 'border-white/20'
            } ${focusRing}`}
          />
          <button
            type="submit"
            aria-disabled={pending || tooLong}
            className={`rounded-full px-4 py-2 text-sm font-semibold ${focusRing} ${
              pending || tooLong
                ? 'cursor-not-allowed bg-slate-600 text-slate-200'
                : 'bg-white text-slate-950 hover:bg-sky-100'
            }`}
          >
            Send
          </button>
        </div>
        <p className="flex justify-between gap-2 text-xs text-slate-400">
          {/* A phone's keyboard has no Shift+Enter: the hint is for mouse-and-keyboard devices. */}
          <span>{keyboardLikely ? 'Enter sends · Shift+Enter for a new line' : ''}</span>
          <span id={`${ids}-count`} className={tooLong ? 'font-semibold text-red-300' : undefined}>
            {draft.trim().length.toLocaleString('en')} / {MAX_INPUT_CHARS.toLocaleString('en')}
            <span className="sr-only"> characters</span>
          </span>
        </p>
      </form>
    </section>
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
