import { useEffect, useState } from 'react';
import { authText } from '../messages';
import { secondaryButton, type AuthFailure, type Outcome } from './auth-form-parts';

/** GoTrue's default interval between two mails to one address (its SMTP max frequency). */
export const MAIL_INTERVAL_SECONDS = 60;

/** The wait an `over_email_send_rate_limit` answer names ("…only request this after 57 seconds"). */
export function waitFrom(error: AuthFailure): number | null {
  if (error.code !== 'over_email_send_rate_limit') return null;
  const seconds = /after (\d+) seconds?/.exec(error.message)?.[1];
  return seconds ? Math.min(Number(seconds), 3600) : MAIL_INTERVAL_SECONDS;
}

/** Seconds left until `start(n)`'s wait is over, counted down once a second. */
export function useCountdown(initial: number) {
  const [left, setLeft] = useState(initial);
  useEffect(() => {
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return { left, start: setLeft };
}

/**
 * "Resend …": disabled, with the seconds left on it, while the server would refuse another mail to
 * the address (right after sign-up it answered "only after 59 seconds"). A refusal that
 * names its own wait restarts the count from it.
 */
export function ResendButton({
  label,
  initialWait = 0,
  send,
  sentText,
  onOutcome,
}: {
  label: string;
  /** What a sent mail is announced with. */
  sentText: string;
  /** Seconds to wait first: a mail just went out. */
  initialWait?: number;
  /** Sends the mail; resolves to the service's error, or null. */
  send: () => Promise<AuthFailure | null>;
  onOutcome: (outcome: Outcome) => void;
}) {
  const { left, start } = useCountdown(initialWait);
  const [busy, setBusy] = useState(false);
  const click = async () => {
    setBusy(true);
    onOutcome(null);
    try {
      const error = await send();
      if (error) {
        const wait = waitFrom(error);
        if (wait) start(wait);
        onOutcome({ kind: 'error', text: wait ? authText.resendWait(wait) : error.message });
      } else {
        start(MAIL_INTERVAL_SECONDS);
        onOutcome({ kind: 'success', text: sentText });
      }
    } catch (error) {
      onOutcome({
        kind: 'error',
        text: (error as Error).message || 'Something went wrong. Please try again.',
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className={secondaryButton}
      disabled={busy || left > 0}
      onClick={() => void click()}
    >
      {left > 0 ? authText.resendIn(label, left) : label}
    </button>
  );
}
