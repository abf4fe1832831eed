import { isUnansweredReply } from '@engage/http-contract/unanswered';
import { addressUseLine, MAX_EMAIL_CHARS, type ConversationRef } from '@engage/http-contract/visitor-mail';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { ChatState } from '../chat/chat-state';
import { focusRing } from '../components/widget-styles';
import { requestAnswerByMail, type AnswerByMail } from './answer-request';

export interface AnswerByMailOfferProps {
  settings: AnswerByMail;
  conversation: ConversationRef;
  /** "No thanks": the offer goes, and the conversation goes on. */
  onDecline: () => void;
  /** Tests pass a fake. */
  fetch?: typeof fetch;
}

type Phase =
  { step: 'asking'; problem: string | null; onBox: boolean } | { step: 'sending' } | { step: 'done' };

/**
 * The offer, in the conversation, after an answer the assistant did not have: an address box, one
 * line on what the address is for and how long it is kept, and a button. A refused address is said
 * by the box; once taken, the address is cleared and never shown again.
 */
export function AnswerByMailOffer({ settings, conversation, onDecline, fetch }: AnswerByMailOfferProps) {
  const ids = useId();
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>({ step: 'asking', problem: null, onBox: false });
  const box = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (phase.step !== 'asking') return;
    setPhase({ step: 'sending' });
    const result = await requestAnswerByMail(settings.origin, conversation, email, fetch);
    if (result.ok) {
      setEmail('');
      setPhase({ step: 'done' });
      return;
    }
    setPhase({ step: 'asking', problem: result.message, onBox: result.field === 'email' });
    box.current?.focus();
  };

  if (phase.step === 'done')
    return (
      <p role="status" className="mx-3 mb-2 rounded-lg bg-emerald-900/60 px-3 py-2 text-sm text-emerald-100">
        Thank you: the owner&apos;s answer will be mailed to the address you gave, once.
      </p>
    );

  const sending = phase.step === 'sending';
  const problem = phase.step === 'asking' ? phase.problem : null;
  const boxInvalid = phase.step === 'asking' && phase.onBox;
  return (
    <form
      aria-labelledby={`${ids}-title`}
      noValidate
      onSubmit={(event) => void submit(event)}
      className="mx-3 mb-2 grid gap-2 rounded-lg border border-white/15 bg-slate-900 p-3 text-sm"
    >
      <p id={`${ids}-title`} className="font-medium">
        The assistant could not answer this. Would you like the owner to answer you by mail?
      </p>
      <label htmlFor={`${ids}-email`} className="text-slate-200">
        Your email address
      </label>
      <input
        ref={box}
        id={`${ids}-email`}
        type="email"
        autoComplete="email"
        inputMode="email"
        maxLength={MAX_EMAIL_CHARS + 20}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        aria-invalid={boxInvalid}
        aria-describedby={`${ids}-use${problem ? ` ${ids}-problem` : ''}`}
        className={`rounded-lg border bg-slate-950 px-3 py-2 text-white ${
          boxInvalid ? 'border-red-400' : 'border-white/20'
        } ${focusRing}`}
      />
      {problem && (
        <p id={`${ids}-problem`} role="alert" className="text-red-300">
          {problem}
        </p>
      )}
      <p id={`${ids}-use`} className="text-xs text-slate-300">
        {addressUseLine(settings.keepDays)}
      </p>
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          disabled={sending}
          aria-busy={sending}
          className={`rounded-lg bg-white px-3 py-1.5 font-medium text-slate-950 disabled:opacity-60 ${focusRing}`}
        >
          {sending ? 'Sending…' : 'Mail me the answer'}
        </button>
        <button
          type="button"
          onClick={onDecline}
          disabled={sending}
          className={`rounded-lg px-3 py-1.5 text-slate-300 hover:text-white ${focusRing}`}
        >
          No, thanks
        </button>
      </div>
    </form>
  );
}

/**
 * The offer where the chat is: after its newest answer, when that was an "I don't know". Declined,
 * it goes for that turn; a later unanswered turn offers again.
 */
export function OfferAfterUnanswered({
  state,
  settings,
  onDecline,
  fetch,
}: {
  state: Pick<ChatState, 'messages' | 'lastChatId'>;
  /** Absent: the site does not offer answers by mail. */
  settings: AnswerByMail | undefined;
  onDecline: () => void;
  fetch: typeof globalThis.fetch | undefined;
}) {
  const [declined, setDeclined] = useState<string | null>(null);
  const last = state.messages.at(-1);
  const turn = state.lastChatId;
  if (!settings || !turn || turn === declined || last?.role !== 'assistant') return null;
  if (!isUnansweredReply(last.content, settings.phrases)) return null;
  return (
    <AnswerByMailOffer
      key={turn}
      settings={settings}
      conversation={{ kind: 'chat', id: turn }}
      onDecline={() => {
        setDeclined(turn);
        onDecline();
      }}
      {...(fetch && { fetch })}
    />
  );
}

/**
 * The offer under an ended call's transcript, when the assistant said it did not know something in
 * it. Declined, it goes for that call.
 */
export function OfferAfterCall({
  callId,
  assistantLines,
  settings,
}: {
  callId: string;
  /** What the assistant said in the call, turn by turn. */
  assistantLines: readonly string[];
  settings: AnswerByMail;
}) {
  const [declined, setDeclined] = useState<string | null>(null);
  if (declined === callId || !assistantLines.some((line) => isUnansweredReply(line, settings.phrases)))
    return null;
  return (
    <AnswerByMailOffer
      key={callId}
      settings={settings}
      conversation={{ kind: 'call', id: callId }}
      onDecline={() => setDeclined(callId)}
    />
  );
}
