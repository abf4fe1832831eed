import { useState, type FormEvent } from 'react';
import { EmailField, OneTimeCodeField } from '@/components/ui/credential-fields';
import type { SupabaseClient } from '@/lib/supabase';
import { authText } from '../messages';
import { failureText, Message, run, Submit, type Outcome } from './auth-form-parts';

/**
 * The invitation mail's code, typed instead of following its link (POST /verify, type `invite`): it
 * signs the invited user in, and /accept-invite then asks for their password.
 */
export function InviteCodeForm({
  supabase,
  initial,
}: {
  supabase: () => Promise<SupabaseClient>;
  /** A failed link's explanation, shown until the user tries a code. */
  initial: Outcome;
}) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(setBusy, setOutcome, async () => {
      const { error } = await (
        await supabase()
      ).auth.verifyOtp({ email: email.trim(), token: code.trim(), type: 'invite' });
      return error ? { kind: 'error', text: failureText(error, authText.inviteCodeWrong) } : null;
    });
  };
  return (
    <form className="grid gap-4" aria-label="Accept with a code" onSubmit={submit}>
      <EmailField value={email} onValueChange={setEmail} />
      <OneTimeCodeField label="Six-digit code" value={code} onValueChange={setCode} />
      <Message outcome={outcome} />
      <Submit busy={busy}>Accept Invitation</Submit>
    </form>
  );
}
