import type { PasskeyListItem } from '@supabase/auth-js';
import { useCallback, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { rememberPasskey } from '@/lib/passkey-hint';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { errorText, FormMessage } from './form-message';
import { PasskeyItem } from './passkey-item';
import { useProfileList } from './use-profile-list';

type Client = () => Promise<SupabaseClient>;

async function listPasskeys(supabase: Client): Promise<PasskeyListItem[]> {
  const { data, error } = await (await supabase()).auth.passkey.list();
  if (error) throw error;
  return data;
}

/** A browser's refusal (cancelled, timed out) reads as a DOMException name: say it plainly. */
function ceremonyError(error: unknown): string {
  const cause = (error as { cause?: { name?: string } } | null)?.cause;
  if (cause?.name === 'NotAllowedError' || cause?.name === 'AbortError') return profileText.passkeyCancelled;
  return errorText(error);
}

/**
 * The profile's passkeys: add one under a name (auth-js's WebAuthn ceremony; the server
 * checks it), list with when each was added and last used, rename, remove after a confirmation.
 */
export function Passkeys({ supabase }: { supabase: Client }) {
  const [name, setName] = useState('');
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;
  const {
    items: passkeys,
    reload,
    busy,
    outcome,
    act,
  } = useProfileList(
    useCallback(() => listPasskeys(supabase), [supabase]),
    ceremonyError,
  );

  const add = (e: FormEvent) => {
    e.preventDefault();
    void act(async () => {
      const { auth } = await supabase();
      const { data, error } = await auth.registerPasskey();
      if (error) throw error;
      rememberPasskey(); // this browser now offers it in the sign-in form's autofill
      const friendlyName = name.trim();
      if (friendlyName) {
        const renamed = await auth.passkey.update({ passkeyId: data.id, friendlyName });
        if (renamed.error) throw renamed.error;
      }
      setName('');
      await reload();
      return { kind: 'success', text: profileText.passkeyAdded };
    });
  };

  const rename = (passkeyId: string, friendlyName: string) =>
    act(async () => {
      const { error } = await (await supabase()).auth.passkey.update({ passkeyId, friendlyName });
      if (error) throw error;
      await reload();
      return { kind: 'success', text: profileText.passkeyRenamed };
    });

  const remove = (passkeyId: string) =>
    act(async () => {
      const { error } = await (await supabase()).auth.passkey.delete({ passkeyId });
      if (error) throw error;
      await reload();
      return { kind: 'success', text: profileText.passkeyRemoved };
    });

  return (
    <section className="grid gap-4" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" className="text-lg font-semibold">
        Passkeys
      </h2>
      <p className="text-sm text-muted-foreground">{profileText.passkeysHelp}</p>
      {passkeys === null ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : passkeys.length === 0 ? (
        <p className="text-sm text-muted-foreground">{profileText.noPasskeys}</p>
      ) : (
        <ul className="grid gap-2" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <PasskeyItem key={p.id} passkey={p} busy={busy} onRename={rename} onRemove={remove} />
          ))}
        </ul>
      )}
      <FormMessage outcome={outcome} />
      {supported ? (
        <form
          className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
          onSubmit={add}
          aria-label="Add a passkey"
        >
          <FormField
            label="Passkey name"
            hint="For example the device or password manager that keeps it."
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" disabled={busy} className="justify-self-start">
            Add a passkey
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">{profileText.passkeyUnsupported}</p>
      )}
    </section>
  );
}
