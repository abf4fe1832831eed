import { cn } from '@/lib/utils';
import { extensionOf } from '../lib/file-types';

/** How many characters of the name before its extension stay in view with it. */
const KEPT_BEFORE_EXTENSION = 2;

/** Splits a name where a middle truncation cuts it: the head may shrink, the tail (…me.pdf) stays. */
export function splitForTruncation(name: string): { head: string; tail: string } {
  const ext = extensionOf(name);
  const keep = Math.min(name.length, ext.length + KEPT_BEFORE_EXTENSION);
  // Nothing to gain for names too short to be cut in a useful place.
  if (!ext || name.length <= keep + 1) return { head: name, tail: '' };
  return { head: name.slice(0, name.length - keep), tail: name.slice(name.length - keep) };
}

/**
 * A file name that truncates in the middle on narrow screens ('very-long-na…me.pdf'), so its
 * extension stays readable; the full name is its title and what assistive technology reads.
 */
export function FileName({ name, className }: { name: string; className?: string }) {
  const { head, tail } = splitForTruncation(name);
  return (
    <span className={cn('min-w-0', className)} title={name}>
      {/* Read whole, once; the cut-able copy beside it is only for the eye. */}
      <span className="sr-only">{name}</span>
      <span className="flex min-w-0" aria-hidden>
        <span className="truncate">{head}</span>
        {tail && <span className="shrink-0 whitespace-pre">{tail}</span>}
      </span>
    </span>
  );
}
