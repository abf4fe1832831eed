import { LoaderCircle } from 'lucide-react';
import { useEffect, useState, type Ref } from 'react';

/** True once `active` has lasted `ms`: a spinner for waits long enough to notice, not for each blink. */
function useLongWait(active: boolean, ms = 1000): boolean {
  const [long, setLong] = useState(false);
  // A wait that ended forgets it was long (state adjusted while rendering, no effect).
  const [wasActive, setWasActive] = useState(active);
  if (wasActive !== active) {
    setWasActive(active);
    if (!active) setLong(false);
  }
  useEffect(() => {
    if (!active) return undefined;
    const timer = setTimeout(() => setLong(true), ms);
    return () => clearTimeout(timer);
  }, [active, ms]);
  return active && long;
}

/**
 * A polite live region: what the page is doing (loading, deleting, saving) or has done. A wait of
 * more than a second shows a spinner beside the words.
 */
export function StatusLine({
  busy,
  text,
  id,
  ref,
}: {
  busy: boolean;
  text: string;
  id?: string;
  /** For a page that moves focus here (tabIndex -1) when what had focus is gone. */
  ref?: Ref<HTMLParagraphElement>;
}) {
  const long = useLongWait(busy);
  return (
    <p
      id={id}
      ref={ref}
      tabIndex={ref ? -1 : undefined}
      role="status"
      aria-live="polite"
      className="flex min-h-5 items-center gap-2 text-sm text-muted-foreground"
    >
      {busy && long && <LoaderCircle className="size-4 animate-spin" aria-hidden />}
      {text}
    </p>
  );
}
