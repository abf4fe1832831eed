import { MAX_ANSWER_CHARS } from '@engage/http-contract/conversations';
import type { AnswerRequestView, UnansweredQuestion } from '@engage/http-contract/conversations';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import {
  useAnswerRequests,
  useDismissQuestion,
  useSaveAnswer,
  useUnansweredQuestions,
} from '../hooks/queries';
import { errorText, formatTime } from '../lib/format';
import { AnswersByMail, mailedText, WaitingLine } from './answers-by-mail';
import { LoadFailed } from './load-failed';
import { QuestionActions } from './question-actions';
import { StatusLine } from './status-line';

/** The site's assistants and the owner's UNANSWERED_PHRASES are the server's (it scans). */
export interface UnansweredTabProps {
  assistantName: (id: string | null) => string;
  active: boolean;
}

/** Why an answer was not saved: a full Answers file is the server's whole story (what happened, and how to make room). */
const notSaved = (error: unknown) =>
  (error as { code?: unknown }).code === 'answers_file_full'
    ? errorText(error)
    : `The answer was not saved: ${errorText(error)}`;

/** The question, its assistant, how often and when it was last asked. */
function QuestionHeading({ item, assistant }: { item: UnansweredQuestion; assistant: string }) {
  return (
    <>
      <p className="text-sm font-medium break-words">{item.question}</p>
      <p className="text-xs text-muted-foreground">
        {assistant} · asked {item.count} {item.count === 1 ? 'time' : 'times'}, last{' '}
        <time dateTime={new Date(item.lastAskedAt).toISOString()}>{formatTime(item.lastAskedAt)}</time>
      </p>
    </>
  );
}

/** One question: how often and when last, and its Answer box. */
function QuestionItem({
  item,
  waiting,
  assistantName,
  onSaved,
  onDismissed,
}: {
  item: UnansweredQuestion;
  /** The visitors who left an address for this question's answer. */
  waiting: readonly AnswerRequestView[];
  assistantName: (id: string | null) => string;
  onSaved: (item: UnansweredQuestion, mails: { mailed: number; notMailed: number }) => void;
  onDismissed: (item: UnansweredQuestion) => void;
}) {
  const id = useId();
  const save = useSaveAnswer();
  const dismiss = useDismissQuestion();
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  async function dismissIt() {
    if (!item.assistantId) return;
    setProblem(null);
    try {
      await dismiss.mutateAsync({ assistantId: item.assistantId, question: item.question });
      onDismissed(item);
    } catch (error) {
      setProblem(`The question was not dismissed: ${errorText(error)}`);
    }
  }

  async function submit() {
    const text = answer.trim();
    if (!text) {
      setProblem('Type the answer first.');
      box.current?.focus();
      return;
    }
    if (!item.assistantId) return;
    setProblem(null);
    try {
      const result = await save.mutateAsync({
        assistantId: item.assistantId,
        question: item.question,
        answer: text,
      });
      onSaved(item, result);
    } catch (error) {
      setProblem(notSaved(error));
    }
  }

  return (
    <li
      aria-label={item.question}
      className="grid gap-2 rounded-lg border border-border bg-background p-3 shadow-xs"
    >
      <QuestionHeading item={item} assistant={assistantName(item.assistantId)} />
      <WaitingLine waiting={waiting} />
      {!open ? (
        <QuestionActions
          answerable={item.assistantId !== null}
          dismissing={dismiss.isPending}
          problem={problem}
          onAnswer={() => {
            setOpen(true);
            // The box appears with this render; focus goes to it once it is there.
            requestAnimationFrame(() => box.current?.focus());
          }}
          onDismiss={() => void dismissIt()}
        />
      ) : (
        <form
          className="grid gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Label htmlFor={`${id}-answer`}>Answer</Label>
          <Textarea
            id={`${id}-answer`}
            ref={box}
            value={answer}
            maxLength={MAX_ANSWER_CHARS}
            rows={3}
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => setAnswer(e.target.value)}
          />
          {problem && (
            <p id={`${id}-problem`} role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit" size="sm" disabled={save.isPending} aria-busy={save.isPending}>
              {save.isPending ? 'Saving…' : waiting.length > 0 ? 'Save and mail answer' : 'Save answer'}
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => setOpen(false)}
              disabled={save.isPending}
            >
              Cancel
            </Button>
          </div>
          <StatusLine busy={save.isPending} text={save.isPending ? 'Saving the answer…' : ''} />
        </form>
      )}
    </li>
  );
}

/**
 * "Unanswered questions": what visitors asked that the assistant could not answer, grouped. An
 * answer joins the assistant's Answers document, and the question leaves the list.
 */
export function UnansweredTab({ assistantName, active }: UnansweredTabProps) {
  const query = useUnansweredQuestions(active);
  const requests = useAnswerRequests(active);
  const [onlyWaiting, setOnlyWaiting] = useState(false);
  const waitingFor = (key: string) =>
    (requests.data ?? []).filter((r) => r.questionKey === key && r.answeredAt === null);
  // Answered here: gone at once, before the refreshed list arrives.
  const [saved, setSaved] = useState<ReadonlySet<string>>(new Set());
  const [announcement, setAnnouncement] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const open = (query.data?.questions ?? []).filter((q) => !saved.has(q.key));
  const waitedOn = open.filter((q) => waitingFor(q.key).length > 0).length;
  const questions = onlyWaiting ? open.filter((q) => waitingFor(q.key).length > 0) : open;

  return (
    <section aria-labelledby="unanswered-heading" className="grid gap-3">
      <h2
        id="unanswered-heading"
        ref={heading}
        tabIndex={-1}
        className="text-lg font-semibold focus:outline-none"
      >
        Unanswered questions
      </h2>
      <p className="text-sm text-muted-foreground">
        Questions visitors asked that the assistant could not answer. Your answer is added to the
        assistant&apos;s &ldquo;Answers&rdquo; document, so it answers the question next time, and is mailed
        once to each visitor waiting for it; dismiss what needs no answer (&ldquo;hi&rdquo;,
        &ldquo;thanks&rdquo;).
      </p>
      <StatusLine
        busy={query.isFetching}
        text={query.isPending ? 'Loading unanswered questions…' : announcement}
      />
      {query.isError && (
        <LoadFailed what="The questions" error={query.error} onRetry={() => void query.refetch()} />
      )}
      {requests.isError && (
        <p role="alert" className="text-sm text-destructive">
          The visitors waiting for an answer by mail could not be loaded: {errorText(requests.error)}
        </p>
      )}
      {open.length > 0 && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={onlyWaiting}
            onChange={(e) => setOnlyWaiting(e.target.checked)}
            className="size-4"
          />
          Only questions a visitor is waiting on ({waitedOn})
        </label>
      )}
      {query.isSuccess && open.length === 0 && (
        <p className="text-sm">No unanswered questions: the assistants answered everything visitors asked.</p>
      )}
      {query.isSuccess && open.length > 0 && questions.length === 0 && (
        <p className="text-sm">No visitor is waiting for an answer by mail.</p>
      )}
      {questions.length > 0 && (
        <ul aria-label="Unanswered questions" className="grid gap-2">
          {questions.map((item) => (
            <QuestionItem
              key={item.key}
              item={item}
              waiting={waitingFor(item.key)}
              assistantName={assistantName}
              onSaved={(done, mails) => {
                setSaved((was) => new Set([...was, done.key]));
                setAnnouncement(
                  `Answer saved: "${done.question}" is answered from now on. ${mailedText(mails)}`.trim(),
                );
                // The question (and the button that had focus) is gone: keyboard users go on from the heading.
                heading.current?.focus();
              }}
              onDismissed={(done) => {
                setSaved((was) => new Set([...was, done.key]));
                setAnnouncement(`Dismissed: "${done.question}" is not listed again.`);
                heading.current?.focus();
              }}
            />
          ))}
        </ul>
      )}
      <AnswersByMail requests={requests.data ?? []} />
    </section>
  );
}
