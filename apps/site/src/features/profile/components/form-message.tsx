import { Alert, AlertDescription } from '@/components/ui/alert';

export type Outcome = { kind: 'error' | 'success'; text: string } | null;

/** A form's result: errors in the red alert (announced at once), successes politely. */
export function FormMessage({ outcome }: { outcome: Outcome }) {
  // Both live regions stay mounted so screen readers announce the text when it appears.
  return (
    <>
      <div aria-live="assertive">
        {outcome?.kind === 'error' && (
          <Alert variant="destructive" className="border-red-300 bg-red-50 text-red-800">
            <AlertDescription>{outcome.text}</AlertDescription>
          </Alert>
        )}
      </div>
      <div aria-live="polite">
        {outcome?.kind === 'success' && (
          <Alert className="border-emerald-300 bg-emerald-50 text-emerald-900">
            <AlertDescription>{outcome.text}</AlertDescription>
          </Alert>
        )}
      </div>
    </>
  );
}

/** The message of whatever an auth call threw or answered. */
export const errorText = (error: unknown) =>
  (error as Error | null)?.message || 'Something went wrong. Please try again.';
