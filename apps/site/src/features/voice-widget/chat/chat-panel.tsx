import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { OfferAfterUnanswered } from '../answer-by-mail/answer-by-mail-offer';
import type { AnswerByMail } from '../answer-by-mail/answer-request';
import { focusRing } from '../components/widget-styles';
import {
  BoxFooter,
  ChatHeader,
  ConversationList,
  enterSends,
  SendButton,
  Said,
  useEscapeToClose,
} from './chat-parts';
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
  /** Answers by mail: offered after an answer the assistant did not have (absent: not offered). */
  answerByMail?: AnswerByMail;
  /** Tests pass fakes. */
  fetch?: typeof fetch;
  storage?: Storage | null;
}

const REASONS = {
  'microphone-denied': 'Microphone access is blocked — you can type instead.',
  'microphone-missing': 'No microphone was found — you can type instead.',
} as const;

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
  answerByMail,
  fetch,
  storage,
}: ChatPanelProps) {
  const { state, send, reset } = useWebChat({ assistantId, publicKey, apiBaseUrl, fetch, storage });
  const [draft, setDraft] = useState('');
  const [inputError, setInputError] = useState<string | null>(null);
  const root = useRef<HTMLElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const ids = useId();
  const speaker = assistantName ? `The ${assistantName}` : 'The assistant';
  const title = assistantName ? `Chat with the ${assistantName}` : 'Chat with the assistant';
  const tooLong = draft.trim().length > MAX_INPUT_CHARS;
  const pending = state.pending !== null;
  const reason = initialReason === 'chosen' ? null : REASONS[initialReason];

  useEffect(() => box.current?.focus(), []);

  useEscapeToClose(root, onClose);

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
      <ChatHeader
        titleId={`${ids}-title`}
        title={title}
        canStartOver={state.messages.length > 0}
        onStartOver={startOver}
        onClose={onClose}
      />

      {reason && <p className="border-b border-white/10 px-4 py-2 text-sm text-amber-200">{reason}</p>}
      {!publicKey && (
        <p className="border-b border-white/10 px-4 py-2 text-sm text-amber-200">
          Text chat is not configured on this site yet.
        </p>
      )}

      <ConversationList state={state} speaker={speaker} lang={lang} />

      <OfferAfterUnanswered
        state={state}
        settings={answerByMail}
        onDecline={() => box.current?.focus()}
        fetch={fetch}
      />

      <p aria-live="polite" className="sr-only">
        {state.announcement && <Said speaker={speaker} text={state.announcement} lang={lang} />}
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
            onKeyDown={(event) => enterSends(event, submit)}
            rows={2}
            placeholder="Type a message"
            aria-invalid={tooLong}
            aria-describedby={describedBy}
            className={`max-h-32 min-w-0 flex-1 resize-none rounded-lg border bg-slate-900 px-3 py-2 text-sm text-white placeholder:text-slate-400 ${
              tooLong ? 'border-red-400' : 'border-white/20'
            } ${focusRing}`}
          />
          <SendButton disabled={pending || tooLong} />
        </div>
        <BoxFooter countId={`${ids}-count`} length={draft.trim().length} tooLong={tooLong} />
      </form>
    </section>
  );
}
