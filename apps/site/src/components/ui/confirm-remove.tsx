import { Loader2 } from 'lucide-react';
import { useRef, useState, type ReactElement, type ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from './alert-dialog';
import { Button } from './button';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Confirm, then remove: the one confirmation dialog of the site's deletions. Focus moves into the
 * dialog and back to the trigger (or to `focusAfter` once the removal is done, when the trigger
 * goes with the removed row). While `onConfirm` runs the dialog stays open and busy (it cannot be
 * dismissed); if it rejects, the reason is shown inside the dialog, where the user is looking, and
 * the user may try again or cancel. Opened by `trigger`, or controlled with `open`/`onOpenChange`.
 * The same dialog confirms other consequential actions (ban, sign out everywhere, make admin), with
 * `children` for a choice the action takes (a ban's length).
 */
export function ConfirmRemove({
  trigger,
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  variant = 'default',
  onConfirm,
  errorText = messageOf,
  focusAfter,
  focusOnClose,
  children,
}: {
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  variant?: 'default' | 'destructive';
  onConfirm: () => Promise<unknown>;
  /** How a rejection of `onConfirm` reads in the dialog. */
  errorText?: (error: unknown) => ReactNode;
  /** Focuses what stays once the removal is done (instead of the trigger). */
  focusAfter?: () => void;
  /** Focuses this whenever the dialog closes: a controlled dialog whose opener has gone (a menu item). */
  focusOnClose?: () => void;
  /** Fields the action reads, shown between the description and the error. */
  children?: ReactNode;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ReactNode>(null);
  const done = useRef(false);
  const isOpen = open ?? ownOpen;

  const setOpen = (next: boolean) => {
    if (next) {
      done.current = false;
      setError(null);
    }
    setOwnOpen(next);
    onOpenChange?.(next);
  };

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      done.current = true;
      setBusy(false);
      setOpen(false);
    } catch (failure) {
      setBusy(false);
      setError(errorText(failure));
    }
  }

  return (
    <AlertDialog open={isOpen} onOpenChange={(next) => (busy && !next ? undefined : setOpen(next))}>
      {trigger && <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger>}
      <AlertDialogContent
        aria-busy={busy}
        onEscapeKeyDown={(event) => busy && event.preventDefault()}
        onCloseAutoFocus={(event) => {
          const focus = done.current && focusAfter ? focusAfter : focusOnClose;
          if (!focus) return;
          event.preventDefault();
          focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <div aria-live="assertive">
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
        </div>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <Button variant={variant} disabled={busy} aria-busy={busy} onClick={() => void confirm()}>
            {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
            {confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
