/** How the page writes times and durations: the browser's own locale and time zone. */

export const formatTime = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "1 min 5 s", "45 s", or "—" while unknown (a call still going on). */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '—';
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return minutes ? `${minutes} min ${rest} s` : `${rest} s`;
}

export const kindLabel = (kind: 'voice' | 'chat') => (kind === 'voice' ? 'Voice' : 'Chat');

/** An error's message for the page (the provider's readable message when it sent one). */
export const errorText = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : 'Something went wrong. Try again.';
