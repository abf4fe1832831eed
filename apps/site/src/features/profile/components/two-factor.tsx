import type { Factor } from '@supabase/auth-js';
import { useCallback, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmRemove } from '@/components/ui/confirm-remove';
import { makeRecoveryCodes, recoveryCodesOffered } from '@/lib/recovery-codes';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { FormMessage } from './form-message';
import { RecoveryCodes } from './recovery-codes';
import { TotpEnrolment, type Enrolment } from './totp-enrolment';
import { useProfileList } from './use-profile-list';

const factorName = (f: Factor) =>
  f.friendly_name || (f.factor_type === 'webauthn' ? 'Security key' : 'Authenticator app');
const factorKind = (f: Factor) => (f.factor_type === 'webauthn' ? 'security key or passkey' : 'TOTP');

/** A friendly name no factor of the user has yet (the server refuses a duplicate). */
function freeKeyName(factors: readonly Factor[]): string {
  const taken = new Set(factors.map((f) => f.friendly_name));
  for (let n = 1; ; n++) if (!taken.has(`Security key ${n}`)) return `Security key ${n}`;
}

type Client = () => Promise<SupabaseClient>;

/** The user's factors, verified or not: the one way this page reads them. */
async function listFactors(supabase: Client): Promise<Factor[]> {
  const { data, error } = await (await supabase()).auth.mfa.listFactors();
  if (error) throw error;
  return data.all;
}

/** Removes a factor; a refusal (e.g. a session below aal2) is the caller's error to show. */
async function unenroll(supabase: Client, factorId: string): Promise<void> {
  const { error } = await (await supabase()).auth.mfa.unenroll({ factorId });
  if (error) throw error;
}

/** The verified second factors, each with its Remove (confirmed first). */
function FactorList(props: {
  factors: Factor[];
  busy: boolean;
  onRemove: (factor: Factor) => Promise<unknown>;
}) {
  const { busy } = props;
  return (
    <ul className="grid gap-2" aria-label="Second factors">
      {props.factors.map((f) => (
        <li
          key={f.id}
          className="flex items-center justify-between gap-4 rounded-md border border-border px-3 py-2"
        >
          <span className="text-sm">
            {factorName(f)} <span className="text-muted-foreground">({factorKind(f)}, verified)</span>
          </span>
          <ConfirmRemove
            trigger={
              <Button variant="outline" size="sm" disabled={busy}>
                Remove
              </Button>
            }
            title={`Remove this ${f.factor_type === 'webauthn' ? 'security key' : 'authenticator app'}?`}
            description="Signing in will no longer ask for it. You can set it up again later."
            confirmLabel="Remove"
            onConfirm={() => props.onRemove(f)}
          />
        </li>
      ))}
    </ul>
  );
}

/**
 * TOTP with an authenticator app: enrol (QR code and the key to type), verify with a code from the
 * app, list, remove. A verified factor makes sign-in ask for a code (features/auth/aal.ts).
 */
export function TwoFactor({ supabase }: { supabase: Client }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  // The first factor just verified: its recovery codes, made and shown at once.
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);
  const {
    items: factors,
    reload,
    busy,
    outcome,
    act,
  } = useProfileList(useCallback(() => listFactors(supabase), [supabase]));
  const verifiedCount = (factors ?? []).filter((f) => f.status === 'verified').length;

  const start = () =>
    act(async () => {
      // An enrolment left unverified (a closed tab) would block nothing, but would linger in the list.
      for (const f of (factors ?? []).filter((f) => f.status === 'unverified'))
        await unenroll(supabase, f.id);
      const { data, error } = await (await supabase()).auth.mfa.enroll({ factorType: 'totp' });
      if (error) throw error;
      setEnrolment({ factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret });
      return null;
    });

  const verify = (code: string, clear: () => void) => {
    if (!enrolment) return;
    void act(async () => {
      const { error } = await (
        await supabase()
      ).auth.mfa.challengeAndVerify({ factorId: enrolment.factorId, code });
      if (error) {
        clear();
        throw error;
      }
      setEnrolment(null);
      if (verifiedCount === 0 && recoveryCodesOffered())
        setFreshCodes(await makeRecoveryCodes((await supabase()).auth).catch(() => null));
      await reload();
      return { kind: 'success', text: profileText.totpOn };
    });
  };

  /** A WebAuthn factor: auth-js enrols it, runs the browser's ceremony and verifies it (aal2). */
  const addKey = () =>
    act(async () => {
      const { auth } = await supabase();
      const { error } = await auth.mfa.webauthn.register({ friendlyName: freeKeyName(factors ?? []) });
      await reload();
      if (error) throw error;
      return { kind: 'success', text: profileText.securityKeyOn };
    });

  const cancel = () =>
    act(async () => {
      if (enrolment) await unenroll(supabase, enrolment.factorId);
      setEnrolment(null);
      await reload();
      return null;
    });

  const remove = (factor: Factor) =>
    act(async () => {
      await unenroll(supabase, factor.id);
      await reload();
      const text =
        factor.factor_type === 'webauthn' ? profileText.securityKeyRemoved : profileText.totpRemoved;
      return { kind: 'success', text };
    });

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
        <FactorList factors={verified} busy={busy} onRemove={remove} />
      )}
      {verified.length > 0 && recoveryCodesOffered() && (
        <RecoveryCodes key={freshCodes?.[0] ?? 'status'} supabase={supabase} initialCodes={freshCodes} />
      )}
      {enrolment ? (
        <TotpEnrolment
          key={enrolment.factorId}
          enrolment={enrolment}
          busy={busy}
          outcome={outcome}
          onVerify={verify}
          onCancel={() => void cancel()}
        />
      ) : (
        <>
          <FormMessage outcome={outcome} />
          <div className="flex flex-wrap gap-2">
            {factors !== null && !verified.some((f) => f.factor_type === 'totp') && (
              <Button disabled={busy} onClick={() => void start()}>
                Set up an authenticator app
              </Button>
            )}
            {factors !== null && 'PublicKeyCredential' in window && (
              <Button variant="outline" disabled={busy} onClick={() => void addKey()}>
                Add a security key
              </Button>
            )}
          </div>
        </>
      )}
    </section>
  );
}
