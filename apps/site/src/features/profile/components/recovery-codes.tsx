import { Copy, Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import { datedFileName, downloadBlob } from '@/lib/download';
import { makeRecoveryCodes, recoveryCodeStatus } from '@/lib/recovery-codes';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { FormMessage, type Outcome } from './form-message';

/**
 * Recovery codes for an account with a second factor: how many are left, a new set (shown once, to
 * download or copy; the old set stops working). `initialCodes`: a set just made at enrolment.
 */
export function RecoveryCodes({
  supabase,
  initialCodes = null,
}: {
  supabase: () => Promise<SupabaseClient>;
  initialCodes?: string[] | null;
}) {
  const [remaining, setRemaining] = useState<number | null>(initialCodes?.length ?? null);
  const [codes, setCodes] = useState<string[] | null>(initialCodes);
  // Read once, on mount: a set just made needs no count from the server.
  const [madeAtEnrolment] = useState(initialCodes !== null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const make = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const made = await makeRecoveryCodes((await supabase()).auth);
      setCodes(made);
      setRemaining(made.length);
    } catch (error) {
      setOutcome({ kind: 'error', text: (error as Error).message });
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (madeAtEnrolment) return;
    let live = true;
    supabase()
      .then(({ auth }) => recoveryCodeStatus(auth))
      .then(
        (status) => live && setRemaining(status.remaining),
        (error: unknown) => live && setOutcome({ kind: 'error', text: (error as Error).message }),
      );
    return () => {
      live = false;
    };
  }, [madeAtEnrolment, supabase]);

  const text = codes ? `${profileText.recoveryFileIntro}\n\n${codes.join('\n')}\n` : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome({ kind: 'success', text: profileText.recoveryCopied });
    } catch {
      setOutcome({ kind: 'error', text: profileText.copyFailed });
    }
  };

  return (
    <section className="grid gap-3" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" className="font-medium">
        Recovery codes
      </h3>
      {codes ? (
        <div className="grid gap-3 rounded-md border border-border bg-muted/40 p-3">
          <p className="text-sm font-medium">{profileText.recoveryShownOnce}</p>
          <ol aria-label="Your recovery codes" className="grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm">
            {codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ol>
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              size="sm"
              onClick={() =>
                downloadBlob(new Blob([text], { type: 'text/plain' }), datedFileName('recovery-codes', 'txt'))
              }
            >
              <Download aria-hidden /> Download codes
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={() => void copy()}>
              <Copy aria-hidden /> Copy codes
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={() => setCodes(null)}>
              I have saved them
            </Button>
          </div>
        </div>
      ) : (
        <>
          <p className="text-sm text-muted-foreground">
            {remaining === null
              ? 'Loading…'
              : remaining === 0
                ? profileText.recoveryNone
                : profileText.recoveryLeft(remaining)}
          </p>
          {remaining === 0 ? (
            <Button size="sm" className="justify-self-start" disabled={busy} onClick={() => void make()}>
              Make recovery codes
            </Button>
          ) : remaining !== null ? (
            <ConfirmRemove
              trigger={
                <Button size="sm" variant="outline" className="justify-self-start" disabled={busy}>
                  Make new recovery codes
                </Button>
              }
              title="Make new recovery codes?"
              description="The codes you have now stop working at once."
              confirmLabel="Make new codes"
              onConfirm={make}
            />
          ) : null}
        </>
      )}
      <FormMessage outcome={outcome} />
    </section>
  );
}
