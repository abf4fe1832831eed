import { Button } from '@/components/ui/button';

/** Small talk ("hi", "thanks") needs no answer: Dismiss takes it out of the list, for good. */
function DismissButton(props: { pending: boolean; disabled: boolean; onDismiss: () => void }) {
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={props.disabled || props.pending}
      aria-busy={props.pending}
      onClick={props.onDismiss}
    >
      {props.pending ? 'Dismissing…' : 'Dismiss'}
    </Button>
  );
}

/** Answer and Dismiss, with why the last dismissal failed. */
export function QuestionActions(props: {
  answerable: boolean;
  dismissing: boolean;
  problem: string | null;
  onAnswer: () => void;
  onDismiss: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={!props.answerable || props.dismissing}
        onClick={props.onAnswer}
      >
        Answer
      </Button>
      <DismissButton pending={props.dismissing} disabled={!props.answerable} onDismiss={props.onDismiss} />
      {props.problem && (
        <p role="alert" className="basis-full text-sm text-destructive">
          {props.problem}
        </p>
      )}
    </div>
  );
}
