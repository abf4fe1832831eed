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
 * The mailed six-digit code, typed instead of following the mail's link: a sign-in link's (`email`)
 * or a sign-up confirmation's (`signup`); either signs in (POST /verify). A wrong or expired code
 * says so and offers a new mail, whose button waits out the server's interval.
 */
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
  type: 'email' | 'signup';
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
  const signUp = type === 'signup';
  return (
    <form
      onSubmit={submit}
      className="grid gap-4"
      aria-label={signUp ? 'Confirm with a code' : 'Sign in with a code'}
    >
      <Message outcome={outcome} />
      {signUp && <p className="text-sm text-muted-foreground">{authText.signUpCodeHint}</p>}
      <OneTimeCodeField label="Six-digit code" value={code} onValueChange={setCode} />
      <Submit busy={busy}>Verify Code</Submit>
      <ResendButton
        label={signUp ? authText.resendConfirmation : authText.sendNewCode}
        sentText={signUp ? authText.confirmationResent : authText.signInLinkSent(email)}
        initialWait={initialWait}
        send={resend}
        onOutcome={setOutcome}
      />
      <button type="button" className={secondaryButton} onClick={onBack}>
        {signUp ? 'Back to sign-up' : 'Back to password sign-in'}
      </button>
    </form>
  );
}
