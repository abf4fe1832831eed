import { useState, type FormEvent } from 'react';
import { EmailField, NewPasswordFields, useNewPassword } from '@/components/ui/credential-fields';
import type { SupabaseClient } from '@/lib/supabase';
import { authText } from '../messages';
import { currentPage, failureText, Message, run, Submit, type Outcome } from './auth-form-parts';
import { CodeForm } from './code-form';
import { MAIL_INTERVAL_SECONDS } from './resend-button';

/** Sends the sign-up confirmation again; resolves to the service's error, or null. */
export async function resendConfirmation(supabase: () => Promise<SupabaseClient>, email: string) {
  const { error } = await (
    await supabase()
  ).auth.resend({ type: 'signup', email, options: { emailRedirectTo: currentPage() } });
  return error;
}

/**
 * Sign Up: email and password twice; then the confirmation mail's code may be typed here (or its
 * link followed), and the mail sent again once the server's interval is over.
 */
export function SignUpForm({ supabase }: { supabase: () => Promise<SupabaseClient> }) {
  const [email, setEmail] = useState('');
  const newPassword = useNewPassword();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  /** The address a confirmation went to: its code is asked for. */
  const [signedUp, setSignedUp] = useState<string | null>(null);
  const mismatch = outcome?.text === authText.passwordsDoNotMatch;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!newPassword.matches) {
      setOutcome({ kind: 'error', text: authText.passwordsDoNotMatch });
      return;
    }
    void run(setBusy, setOutcome, async () => {
      const { error } = await (
        await supabase()
      ).auth.signUp({
        email: email.trim(),
        password: newPassword.password,
        options: { emailRedirectTo: currentPage() },
      });
      if (error) return { kind: 'error', text: failureText(error) };
      newPassword.clear();
      setSignedUp(email.trim());
      return { kind: 'success', text: authText.signUpSuccess };
    });
  };
  if (signedUp)
    return (
      <CodeForm
        supabase={supabase}
        email={signedUp}
        type="signup"
        sent={outcome}
        initialWait={MAIL_INTERVAL_SECONDS}
        resend={() => resendConfirmation(supabase, signedUp)}
        onBack={() => {
          setSignedUp(null);
          setOutcome(null);
        }}
      />
    );
  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Sign up">
      <EmailField value={email} onValueChange={setEmail} />
      <NewPasswordFields label="Password" {...newPassword.fields} mismatch={mismatch} />
      <Message outcome={outcome} />
      <Submit busy={busy}>Sign Up</Submit>
    </form>
  );
}
