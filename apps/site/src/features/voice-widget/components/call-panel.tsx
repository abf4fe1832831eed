import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { OfferAfterCall } from '../answer-by-mail/answer-by-mail-offer';
import type { AnswerByMail } from '../answer-by-mail/answer-request';
import { useConversation } from '../hooks/use-conversation';
import { formatCallTime } from '../lib/call-time';
import { turnText, type Speaker, type Turn } from '../lib/conversation';
import type { MessageFeed } from '../lib/message-feed';
import { focusRing } from './widget-styles';

export interface CallPanelProps {
  /** The assistant's messages of this call (transcripts, speech updates…). */
  messages: MessageFeed;
  /** When the call started (ms since the epoch). */
  startedAt: number;
  /** The microphone's level, 0..1. */
  inputLevel: number;
  muted: boolean;
  /** Sends a typed question: the text sent, or null when it could not be sent. */
  onSend: (text: string) => string | null;
  /** The longest question accepted. */
  maxLength: number;
  /** The call is over: its whole transcript stays to read and copy, with nothing to send. */
  ended?: boolean;
  /** Closes an ended call's transcript. */
  onClose?: () => void;
  /** The conversation's language: of what is said and typed, not of the panel's own texts. */
  lang?: string;
  /** Once ended: the call's id and the site's answers by mail, offered if the assistant did not know. */
  answerByMail?: { callId: string; settings: AnswerByMail };
}

/** How many of the latest turns the captions show. */
const CAPTION_TURNS = 2;

const label = (role: Speaker) => (role === 'assistant' ? 'Assistant' : 'You');

/**
 * What a call shows beside the wave and END: the call time, the microphone's level, live
 * captions of the last turns (the whole transcript on request) and a box to type a question.
 * Finals are announced politely, never the partials. Once the call has ended it stays as the
 * whole transcript, to read and copy, until closed. Lazy-loaded: the landing pages' first
 * JavaScript does not carry it.
 */
export function CallPanel(props: CallPanelProps) {
  const { messages, startedAt, inputLevel, muted, onSend, maxLength, ended = false, onClose, lang } = props;
  const { answerByMail } = props;
  const { conversation, addTyped } = useConversation(messages);
  const ids = useId();
  const [opened, setExpanded] = useState(false);
  const expanded = opened || ended;
  const list = useRef<HTMLOListElement>(null);
  const turns = conversation.turns;
  const shown = expanded ? turns : turns.slice(-CAPTION_TURNS);
  const latest = conversation.latestFinal;

  // Newest at the bottom, in view.
  const last = turns.at(-1);
  const lastText = last ? turnText(last) : '';
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [expanded, turns.length, lastText]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && expanded) {
      event.stopPropagation();
      setExpanded(false);
    }
  };

  return (
    // Escape here only folds the transcript back; the listener is on the group, not a control.
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      onKeyDown={onKeyDown}
      className="flex w-[min(22rem,calc(100vw-2rem))] flex-col gap-2 rounded-2xl border border-white/15 bg-slate-950/95 p-3 text-sm text-white shadow-xl backdrop-blur"
    >
      {ended ? (
        <EndedHeader turns={turns} onClose={onClose} />
      ) : (
        <div className="flex items-center gap-3 text-xs text-slate-300">
          <CallTimer startedAt={startedAt} />
          <InputMeter level={muted ? 0 : inputLevel} muted={muted} />
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={`${ids}-turns`}
            onClick={() => setExpanded((open) => !open)}
            className={`ml-auto rounded px-2 py-1 text-xs font-medium text-sky-200 hover:text-white ${focusRing}`}
          >
            {expanded ? 'Hide transcript' : 'Show transcript'}
          </button>
        </div>
      )}

      <ol
        ref={list}
        id={`${ids}-turns`}
        aria-label={expanded ? 'Transcript' : 'Captions'}
        // Focusable when it scrolls, so the transcript scrolls by keyboard (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={expanded ? 0 : undefined}
        className={`flex flex-col gap-1.5 ${expanded ? 'max-h-[min(16rem,40dvh)] overflow-y-auto pr-1' : ''} ${focusRing}`}
      >
        {shown.length === 0 && (
          <li className="text-slate-400">
            {ended ? 'Nothing was said in this call.' : 'Captions appear here as the call goes on.'}
          </li>
        )}
        {shown.map((turn) => (
          <TurnLine key={turn.id} turn={turn} lang={lang} />
        ))}
      </ol>

      <p aria-live="polite" className="sr-only">
        {latest && !ended && (
          <>
            {latest.role === 'assistant' ? 'Assistant' : 'You said'}: <span lang={lang}>{latest.text}</span>
          </>
        )}
      </p>

      {ended && answerByMail && (
        <OfferAfterCall
          callId={answerByMail.callId}
          settings={answerByMail.settings}
          assistantLines={turns.filter((t) => t.role === 'assistant').map(turnText)}
        />
      )}

      {!ended && <AskForm onSend={onSend} onSent={addTyped} maxLength={maxLength} lang={lang} />}
    </div>
  );
}

/** The box to type a question during the call; a message that could not be sent stays in it. */
function AskForm(props: {
  onSend: (text: string) => string | null;
  onSent: (text: string) => void;
  maxLength: number;
  lang: string | undefined;
}) {
  const { onSend, onSent, maxLength, lang } = props;
  const id = useId();
  const [draft, setDraft] = useState('');
  const [failed, setFailed] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) return;
    const sent = onSend(draft);
    if (sent !== null) {
      onSent(sent);
      setDraft('');
      setFailed(false);
    } else setFailed(true);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-1">
      {failed && (
        <p role="alert" className="text-xs text-red-300">
          Your message could not be sent. Try again.
        </p>
      )}
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-box`} className="sr-only">
          Type a message
        </label>
        <input
          id={`${id}-box`}
          lang={lang}
          type="text"
          value={draft}
          maxLength={maxLength}
          autoComplete="off"
          enterKeyHint="send"
          placeholder="Type a message"
          onChange={(event) => setDraft(event.target.value)}
          className={`min-w-0 flex-1 rounded-full border border-white/20 bg-slate-900 px-3 py-2 text-sm text-white placeholder:text-slate-400 ${focusRing}`}
        />
        {/* "Ask", not "Send": a name containing "end" would also answer to END's (pages and tests
          find END by its name). */}
        <button
          type="submit"
          className={`rounded-full bg-white px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-sky-100 ${focusRing}`}
        >
          Ask
        </button>
      </div>
    </form>
  );
}

/** An ended call's heading: what the list is, a copy of it all, and Close. */
function EndedHeader({ turns, onClose }: { turns: readonly Turn[]; onClose?: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () => {
    const text = turns.map((turn) => `${label(turn.role)}: ${turnText(turn)}`).join('\n');
    navigator.clipboard.writeText(text).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  };
  return (
    <div className="flex items-center gap-2 text-xs text-slate-300">
      <p className="font-semibold">Last call</p>
      <span aria-live="polite" className="text-slate-400">
        {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select the text to copy it' : ''}
      </span>
      {turns.length > 0 && (
        <button
          type="button"
          onClick={copy}
          className={`ml-auto rounded px-2 py-1 font-medium text-sky-200 hover:text-white ${focusRing}`}
        >
          Copy transcript
        </button>
      )}
      <button
        type="button"
        onClick={onClose}
        className={`${turns.length > 0 ? '' : 'ml-auto '}rounded px-2 py-1 font-medium text-sky-200 hover:text-white ${focusRing}`}
      >
        Close transcript
      </button>
    </div>
  );
}

function TurnLine({ turn, lang }: { turn: Turn; lang: string | undefined }) {
  const mine = turn.role === 'user';
  return (
    <li className={`leading-snug break-words ${mine ? 'text-sky-100' : 'text-white'}`}>
      <span className={`mr-1.5 text-xs font-semibold uppercase ${mine ? 'text-sky-300' : 'text-slate-400'}`}>
        {label(turn.role)}
      </span>
      <span lang={lang}>
        {turn.settled}
        {turn.settled && turn.pending ? ' ' : ''}
        {turn.pending && <span className="text-slate-300">{turn.pending}</span>}
      </span>
    </li>
  );
}

/** The call's duration, updated every second. */
function CallTimer({ startedAt }: { startedAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <p className="font-mono tabular-nums">
      <span className="sr-only">Call time </span>
      {formatCallTime(now - startedAt)}
    </p>
  );
}

/** The microphone's live level (silent while muted). */
function InputMeter({ level, muted }: { level: number; muted: boolean }) {
  const percent = Math.round(Math.min(1, Math.max(0, level)) * 100);
  return (
    <div
      role="meter"
      aria-label="Microphone level"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={muted ? 'muted' : `${percent}%`}
      className="h-1.5 w-16 overflow-hidden rounded-full bg-white/15"
    >
      <div
        data-testid="input-level-bar"
        className={`h-full origin-left rounded-full transition-transform duration-100 ${muted ? 'bg-amber-400' : 'bg-emerald-400'}`}
        style={{ transform: `scaleX(${Math.max(0.02, percent / 100).toFixed(2)})` }}
      />
    </div>
  );
}
