import { useEffect } from 'react';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toasts } from '../lib/messages';

/** A list that failed to load: the toast (once, however many lists failed) and a retry in place. */
export function FetchError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  useEffect(() => {
    toast.error(toasts.fetchFailed, { id: 'admin-fetch-failed', description: error.message });
  }, [error]);
  return (
    <Alert variant="destructive">
      <AlertTitle>{toasts.fetchFailed}</AlertTitle>
      <AlertDescription>
        <p>{error.message}</p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}
