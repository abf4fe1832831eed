import type { Factor } from '@supabase/auth-js';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { OneTimeCodeField } from '@/components/ui/credential-fields';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { errorText, FormMessage, type Outcome } from './form-message';

interface Enrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

/** GoTrue sends the QR code as a data URI; the embedded auth as SVG text (AUTH-CONTRACT). */
export const qrImageSource = (qr: string) =>
  qr.startsWith('data:') ? qr : `data:image/svg+xml;utf8,${encodeURIComponent(qr)}`;

const factorName = (f: Factor) => f.friendly_name || 'Authenticator app';

/**
 * TOTP with an authenticator app: enrol (QR code and the key to type), verify with a code from the
 * app, list, remove. A verified factor makes sign-in ask for a code (features/auth/aal.ts).
 */
export function TwoFactor({ supabase }: { supabase: () => Promise<SupabaseClient> }) {
  const [factors, setFactors] = useState<Factor[] | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const refresh = useCallback(async () => {
    const { data, error } = await (await supabase()).auth.mfa.listFactors();
    if (error) throw error;
    setFactors(data.all);
    return data.all;
  }, [supabase]);

  useEffect(() => {
    let live = true;
    supabase()
      .then((client) => client.auth.mfa.listFactors())
      .then(({ data, error }) => {
        if (!live) return;
        if (error) setOutcome({ kind: 'error', text: errorText(error) });
        else setFactors(data.all);
      })
      .catch((error: unknown) => live && setOutcome({ kind: 'error', text: errorText(error) }));
    return () => {
      live = false;
    };
  }, [supabase]);

  const act = async (action: () => Promise<Outcome>) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await action());
    } catch (error) {
      setOutcome({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    act(async () => {
      const { auth } = await supabase();
      // An enrolment left unverified (a closed tab) would block nothing, but would linger in the list.
      for (const f of (await refresh()).filter((f) => f.status === 'unverified'))
        await auth.mfa.unenroll({ factorId: f.id });
      const { data, error } = await auth.mfa.enroll({ factorType: 'totp' });
      if (error) throw error;
      setEnrolment({ factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret });
      setCode('');
      setCopied(false);
      return null;
    });

  const verify = (e: FormEvent) => {
    e.preventDefault();
    if (!enrolment) return;
    void act(async () => {
      const { error } = await (
        await supabase()
      ).auth.mfa.challengeAndVerify({ factorId: enrolment.factorId, code: code.trim() });
      if (error) {
        setCode('');
        throw error;
      }
      setEnrolment(null);
      await refresh();
      return { kind: 'success', text: profileText.totpOn };
    });
  };

  const cancel = () =>
    act(async () => {
      if (enrolment) await (await supabase()).auth.mfa.unenroll({ factorId: enrolment.factorId });
      setEnrolment(null);
      await refresh();
      return null;
    });

  const remove = (factorId: string) =>
    act(async () => {
      const { error } = await (await supabase()).auth.mfa.unenroll({ factorId });
      if (error) throw error;
      await refresh();
      return { kind: 'success', text: profileText.totpRemoved };
    });

  const copy = async () => {
    if (!enrolment) return;
    await navigator.clipboard.writeText(enrolment.secret);
    setCopied(true);
  };

  const verified = (factors ?? []).filter((f) => f.status === 'verified');
  return (
    <section className="grid gap-4" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="text-lg font-semibold">
        Two-factor authentication
      </h2>
      {factors === null ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : verified.length === 0 ? (
        <p className="text-sm text-muted-foreground">{profileText.noFactors}</p>
      ) : (
        <ul className="grid gap-2" aria-label="Authenticator apps">
          {verified.map((f) => (
            <li
              key={f.id}
              className="flex items-center justify-between gap-4 rounded-md border border-border px-3 py-2"
            >
              <span className="text-sm">
                {factorName(f)} <span className="text-muted-foreground">(TOTP, verified)</span>
              </span>
              <AlertDialog>
                <AlertDialogTrigger asChild>
                  <Button variant="outline" size="sm" disabled={busy}>
                    Remove
                  </Button>
                </AlertDialogTrigger>
                <AlertDialogContent>
                  <AlertDialogHeader>
                    <AlertDialogTitle>Remove this authenticator app?</AlertDialogTitle>
                    <AlertDialogDescription>
                      Signing in will no longer ask for a code from it. You can set up an app again later.
                    </AlertDialogDescription>
                  </AlertDialogHeader>
                  <AlertDialogFooter>
                    <AlertDialogCancel>Cancel</AlertDialogCancel>
                    <AlertDialogAction onClick={() => void remove(f.id)}>Remove</AlertDialogAction>
                  </AlertDialogFooter>
                </AlertDialogContent>
              </AlertDialog>
            </li>
          ))}
        </ul>
      )}
      {enrolment ? (
        <form className="grid gap-4" aria-label="Set up an authenticator app" onSubmit={verify}>
          <p className="text-sm">{profileText.scanHelp}</p>
          <img
            src={qrImageSource(enrolment.qrCode)}
            alt="QR code to scan with your authenticator app"
            className="size-48 rounded-md border border-border bg-white p-2"
          />
          <div className="grid gap-2">
            <span className="text-sm font-medium" id="totp-key-label">
              Key to type into the app
            </span>
            <div className="flex flex-wrap items-center gap-2">
              <code
                aria-labelledby="totp-key-label"
                className="rounded bg-muted px-2 py-1 font-mono text-sm break-all"
                data-testid="totp-secret"
              >
                {enrolment.secret}
              </code>
              <Button variant="outline" size="sm" onClick={() => void copy()}>
                Copy key
              </Button>
              <span aria-live="polite" className="text-sm text-muted-foreground">
                {copied ? profileText.copied : ''}
              </span>
            </div>
          </div>
          <OneTimeCodeField label="Authentication code" value={code} onValueChange={setCode} />
          <FormMessage outcome={outcome} />
          <div className="flex gap-2">
            <Button type="submit" disabled={busy} aria-busy={busy}>
              Verify and turn on
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => void cancel()}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <FormMessage outcome={outcome} />
          {factors !== null && verified.length === 0 && (
            <Button className="justify-self-start" disabled={busy} onClick={() => void start()}>
              Set up an authenticator app
            </Button>
          )}
        </>
      )}
    </section>
  );
}
