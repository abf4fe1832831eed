import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { EmailField } from '@/components/ui/credential-fields';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { EmailChangeCodes } from './email-change-codes';
import { errorText, FormMessage, type Outcome } from './form-message';

/**
 * A new address (PUT /user {email}). The server's secure email change mails a link to both
 * addresses; the account moves only when both are confirmed, and the links come back to this page.
 */
export function ChangeEmail({ email, supabase }: { email: string; supabase: () => Promise<SupabaseClient> }) {
  const [next, setNext] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  /** The address a change was asked for: the codes of its two mails may be typed. */
  const [pending, setPending] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const address = next.trim();
    // Nothing would be mailed (hosted GoTrue answers as if it had): say so rather than "we sent".
    if (address.toLowerCase() === email.toLowerCase()) {
      setOutcome({ kind: 'error', text: profileText.emailUnchanged });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const { error } = await (
        await supabase()
      ).auth.updateUser({ email: address }, { emailRedirectTo: window.location.href.split('#')[0] });
      if (error) throw error;
      setNext('');
      setPending(address);
      setOutcome({ kind: 'success', text: profileText.emailChangeSent(email, address) });
    } catch (error) {
      setOutcome({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-4">
      <form className="grid gap-4" aria-labelledby="change-email-title" onSubmit={(e) => void submit(e)}>
        <h2 id="change-email-title" className="text-lg font-semibold">
          Change email
        </h2>
        <EmailField label="New email" value={next} onValueChange={setNext} />
        <FormMessage outcome={outcome} />
        <Button type="submit" disabled={busy} aria-busy={busy} className="justify-self-start">
          Change Email
        </Button>
      </form>
      {pending && <EmailChangeCodes key={pending} current={email} next={pending} supabase={supabase} />}
    </div>
  );
}
