import { useState, type FormEvent } from 'react';
import { OneTimeCodeField } from '@/components/ui/credential-fields';
import type { SupabaseClient } from '@/lib/supabase';
import { authText } from '../messages';
import {
  failureText,
  Message,
  run,
  secondaryButton,
  Submit,
  type AuthFailure,
  type Outcome,
} from './auth-form-parts';
import { ResendButton } from './resend-button';

/**
 * The mailed six-digit code, typed instead of following the mail's link: a sign-in link's (`email`),
 * a sign-up confirmation's (`signup`) or a password reset's (`recovery`, which then asks for the new
 * password as its link does); each signs in (POST /verify). A wrong or expired code says so and
 * offers a new mail, whose button waits out the server's interval.
 */
const WORDS = {
  email: {
    form: 'Sign in with a code',
    hint: null,
    resend: authText.sendNewCode,
    resent: (email: string) => authText.signInLinkSent(email),
    back: 'Back to password sign-in',
  },
  signup: {
    form: 'Confirm with a code',
    hint: authText.signUpCodeHint,
    resend: authText.resendConfirmation,
    resent: () => authText.confirmationResent,
    back: 'Back to sign-up',
  },
  recovery: {
    form: 'Reset with a code',
    hint: authText.resetCodeHint,
    resend: authText.sendNewCode,
    resent: () => authText.resetSent,
    back: 'Back to reset',
  },
} as const;

export function CodeForm({
  supabase,
  email,
  type,
  sent,
  initialWait,
  resend,
  onBack,
}: {
  supabase: () => Promise<SupabaseClient>;
  email: string;
  type: 'email' | 'signup' | 'recovery';
  /** What the form opens with: the mail was sent. */
  sent: Outcome;
  /** Seconds before another mail may be asked for. */
  initialWait: number;
  /** Sends a new mail with a new code. */
  resend: () => Promise<AuthFailure | null>;
  onBack: () => void;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(sent);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(setBusy, setOutcome, async () => {
      const { error } = await (await supabase()).auth.verifyOtp({ email, token: code.trim(), type });
      return error ? { kind: 'error', text: failureText(error) } : null;
    });
  };
  const words = WORDS[type];
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label={words.form}>
      <Message outcome={outcome} />
      {words.hint && <p className="text-sm text-muted-foreground">{words.hint}</p>}
      <OneTimeCodeField label="Six-digit code" value={code} onValueChange={setCode} />
      <Submit busy={busy}>Verify Code</Submit>
      <ResendButton
        label={words.resend}
        sentText={words.resent(email)}
        initialWait={initialWait}
        send={resend}
        onOutcome={setOutcome}
      />
      <button type="button" className={secondaryButton} onClick={onBack}>
        {words.back}
      </button>
    </form>
  );
}
