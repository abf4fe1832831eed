import { cn } from '@/lib/utils';
import type { LogLine } from '../lib/controller';

const time = (at: number) => new Date(at).toLocaleTimeString([], { hour12: false });

/** Timestamped lines for every action and error, newest last. */
export function LogsTab({ logs }: { logs: readonly LogLine[] }) {
  if (logs.length === 0) return <p className="text-sm text-muted-foreground">Nothing has happened yet.</p>;
  return (
    <ol
      // A scrollable list with nothing focusable inside must take focus itself, so keyboard users can
      // scroll it (axe: scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      aria-label="Activity log"
      className="max-h-96 overflow-y-auto rounded-md focus-visible:outline-2 focus-visible:outline-ring border border-border bg-muted p-3 font-mono text-xs leading-relaxed"
    >
      {logs.map((line) => (
        <li key={line.id} className={cn(line.level === 'error' && 'text-destructive')}>
          <time dateTime={new Date(line.at).toISOString()}>[{time(line.at)}]</time> {line.message}
        </li>
      ))}
    </ol>
  );
}
