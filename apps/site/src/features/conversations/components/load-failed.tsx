import { Button } from '@/components/ui/button';
import { errorText } from '../lib/format';

/** What could not be loaded and why, where it would have been, with Try again. */
export function LoadFailed({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <div role="alert" className="grid justify-items-start gap-2 text-sm text-destructive">
      <p>
        {what} could not be loaded: {errorText(error)}
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
