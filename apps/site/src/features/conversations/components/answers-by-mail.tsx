import type { AnswerRequestView } from '@engage/http-contract/conversations';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useSendAnswerAgain } from '../hooks/queries';
import { errorText, formatTime } from '../lib/format';

/** The addresses waiting for this question's answer: "waiting: visitor@example.com". */
export function WaitingLine({ waiting }: { waiting: readonly AnswerRequestView[] }) {
  if (waiting.length === 0) return null;
  return (
    <p className="text-xs font-medium text-amber-700 [overflow-wrap:anywhere] dark:text-amber-300">
      waiting: {waiting.map((r) => r.email).join(', ')}
    </p>
  );
}

/** One answer mail: when it went, or why it did not (with Send again). */
function MailedItem({ request }: { request: AnswerRequestView }) {
  const again = useSendAnswerAgain();
  const [problem, setProblem] = useState<string | null>(null);
  const retry = async () => {
    setProblem(null);
    try {
      await again.mutateAsync(request.id);
    } catch (error) {
      setProblem(`Not sent: ${errorText(error)}`);
    }
  };
  return (
    <li
      aria-label={`${request.question} to ${request.email}`}
      className="grid gap-1 text-sm [overflow-wrap:anywhere]"
    >
      <p>
        <span className="font-medium">{request.question}</span> to {request.email}
      </p>
      {request.sentAt ? (
        <p className="text-xs text-muted-foreground">
          Answer sent <time dateTime={request.sentAt}>{formatTime(Date.parse(request.sentAt))}</time>
        </p>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <p className="text-xs text-destructive">
            {request.sendError ? `Not sent: ${request.sendError}` : 'Not sent yet.'}
          </p>
          <Button
            variant="outline"
            size="sm"
            disabled={again.isPending}
            aria-busy={again.isPending}
            onClick={() => void retry()}
          >
            {again.isPending ? 'Sending…' : 'Send again'}
          </Button>
        </div>
      )}
      {problem && (
        <p role="alert" className="text-xs text-destructive">
          {problem}
        </p>
      )}
    </li>
  );
}

/** The answers mailed to visitors (newest first), and the ones whose mail failed. */
export function AnswersByMail({ requests }: { requests: readonly AnswerRequestView[] }) {
  const answered = requests.filter((r) => r.answeredAt !== null);
  if (answered.length === 0) return null;
  return (
    <section aria-labelledby="answers-by-mail-heading" className="grid gap-2">
      <h3 id="answers-by-mail-heading" className="text-base font-semibold">
        Answers by mail
      </h3>
      <ul aria-label="Answers by mail" className="grid gap-2 rounded-lg border border-border p-3">
        {answered.map((r) => (
          <MailedItem key={r.id} request={r} />
        ))}
      </ul>
    </section>
  );
}

/** What the status line says after a save that mailed (or failed to mail) waiting visitors. */
export function mailedText(result: { mailed: number; notMailed: number }): string {
  const parts: string[] = [];
  if (result.mailed > 0)
    parts.push(`Mailed to ${result.mailed} waiting ${result.mailed === 1 ? 'visitor' : 'visitors'}.`);
  if (result.notMailed > 0)
    parts.push(
      `${result.notMailed} ${result.notMailed === 1 ? 'mail' : 'mails'} could not be sent: see Answers by mail.`,
    );
  return parts.join(' ');
}
