import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { OneTimeCodeField } from '@/components/ui/credential-fields';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { errorText, FormMessage, type Outcome } from './form-message';

type Side = 'current' | 'next';

/**
 * The codes of an email change's two mails, typed instead of following their links (POST /verify,
 * type `email_change`, each with the address its mail went to): the first confirmed half is
 * accepted, the second moves the account. A code already confirmed is not asked for again.
 */
export function EmailChangeCodes({
  current,
  next,
  supabase,
}: {
  current: string;
  next: string;
  supabase: () => Promise<SupabaseClient>;
}) {
  const [codes, setCodes] = useState<Record<Side, string>>({ current: '', next: '' });
  const [confirmed, setConfirmed] = useState<Record<Side, boolean>>({ current: false, next: false });
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const address: Record<Side, string> = { current, next };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const done = { ...confirmed };
      for (const side of ['current', 'next'] as const) {
        const token = codes[side].trim();
        if (done[side] || !token) continue;
        const { data, error } = await (
          await supabase()
        ).auth.verifyOtp({ email: address[side], token, type: 'email_change' });
        if (error)
          throw new Error(
            error.code === 'otp_expired' ? profileText.emailChangeCodeWrong(address[side]) : error.message,
          );
        done[side] = true;
        setConfirmed({ ...done });
        if (data.session) {
          setOutcome({ kind: 'success', text: profileText.emailChanged(next) });
          return;
        }
      }
      const missing = (['current', 'next'] as const).find((side) => !done[side]);
      setOutcome({
        kind: 'success',
        text: missing ? profileText.emailChangeHalf(address[missing]) : profileText.emailChanged(next),
      });
    } catch (error) {
      setOutcome({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="grid gap-4" aria-label="Confirm the change with codes" onSubmit={(e) => void submit(e)}>
      <p className="text-sm text-muted-foreground">{profileText.emailChangeCodesHelp}</p>
      {(['current', 'next'] as const).map((side) =>
        confirmed[side] ? (
          <p key={side} className="text-sm">
            {profileText.emailChangeConfirmed(address[side])}
          </p>
        ) : (
          <OneTimeCodeField
            key={side}
            label={`Code from the mail to ${address[side]}`}
            required={false}
            value={codes[side]}
            onValueChange={(value) => setCodes((was) => ({ ...was, [side]: value }))}
          />
        ),
      )}
      <FormMessage outcome={outcome} />
      <Button type="submit" variant="outline" disabled={busy} aria-busy={busy} className="justify-self-start">
        Confirm Change
      </Button>
    </form>
  );
}
