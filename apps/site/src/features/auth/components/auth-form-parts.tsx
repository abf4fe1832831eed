import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { authText } from '../messages';
import { Notice, SubmitButton } from './auth-ui';

/** The auth card's forms' shared parts: their message, submit button and how they run a request. */

export type Outcome = { kind: 'error' | 'success'; text: string } | null;

/** An auth-js error as the card reads it. */
export interface AuthFailure {
  message: string;
  code?: string | undefined;
}

/** Where a mail link should bring the user back to: the page they are on now, without a fragment. */
export const currentPage = () => window.location.href.split('#')[0] as string;

/**
 * The words for an error: a refused code (GoTrue's "Token has expired or is invalid") says what the
 * user can do about it; anything else is the service's own message.
 */
export function failureText(error: AuthFailure, wrongCode: string = authText.codeWrongOrExpired): string {
  return error.code === 'otp_expired' ? wrongCode : error.message;
}

/**
 * The words for a failed passkey ceremony: the browser's refusal (the user cancelled, or the
 * request timed out) and the server's failed verification (a passkey whose counter went back, a
 * signature that did not verify) said plainly; its other refusals (an unknown or removed passkey)
 * as it says them.
 */
export function passkeyFailureText(error: unknown): string {
  const { code, cause, message } = (error ?? {}) as {
    code?: string;
    cause?: { name?: string };
    message?: string;
  };
  if (code === 'ERROR_CEREMONY_ABORTED' || cause?.name === 'NotAllowedError' || cause?.name === 'AbortError')
    return authText.passkeyCancelled;
  // The server's verification library speaks of counters and signatures: said in plain words. The
  // server's own words (a passkey it does not know) are plain already and stay.
  if (code === 'webauthn_verification_failed' && !/not registered/i.test(message ?? ''))
    return /counter/i.test(message ?? '') ? authText.passkeyCounterBehind : authText.passkeyNotVerified;
  return message || 'Something went wrong. Please try again.';
}

export function Message({ outcome }: { outcome: Outcome }) {
  // Both live regions stay mounted so screen readers announce the text when it appears.
  return (
    <>
      <div aria-live="assertive">
        {outcome?.kind === 'error' && <Notice kind="error">{outcome.text}</Notice>}
      </div>
      <div aria-live="polite">
        {outcome?.kind === 'success' && <Notice kind="success">{outcome.text}</Notice>}
      </div>
    </>
  );
}

export function Submit({
  busy,
  disabled,
  children,
}: {
  busy: boolean;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <SubmitButton busy={busy} disabled={disabled ?? false}>
      {busy && <Loader2 className="animate-spin" aria-hidden="true" />}
      {children}
    </SubmitButton>
  );
}

export async function run(
  setBusy: (b: boolean) => void,
  setOutcome: (o: Outcome) => void,
  action: () => Promise<Outcome>,
) {
  setBusy(true);
  setOutcome(null);
  try {
    setOutcome(await action());
  } catch (error) {
    setOutcome({
      kind: 'error',
      text: (error as Error).message || 'Something went wrong. Please try again.',
    });
  } finally {
    setBusy(false);
  }
}

export const secondaryButton =
  'inline-flex h-9 w-full items-center justify-center gap-2 rounded-md border border-border bg-background px-4 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50';
