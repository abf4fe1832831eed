import { ACCOUNT_PATH } from '@engage/http-contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { EmailField } from '@/components/ui/credential-fields';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { FormMessage, type Outcome } from './form-message';

/** Asks the server to delete the signed-in account (DELETE /api/account); its refusal, or null. */
async function deleteAccount(supabase: () => Promise<SupabaseClient>, email: string): Promise<string | null> {
  const { auth } = await supabase();
  const token = (await auth.getSession()).data.session?.access_token;
  if (!token) return profileText.signInAgain;
  const response = await fetch(ACCOUNT_PATH, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (response.ok) return null;
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  return typeof body?.message === 'string' ? body.message : profileText.deleteFailed(response.status);
}

/**
 * "Delete my account": a second step that names what goes and asks for the account's address typed
 * again. The server keeps the last administrator (409 last_admin, said here as it says it). Once
 * deleted, this browser signs out (the sessions are gone with the account).
 */
export function DeleteAccount({
  email,
  supabase,
}: {
  email: string;
  supabase: () => Promise<SupabaseClient>;
}) {
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const confirmation = useRef<HTMLFormElement>(null);
  // The second step takes the focus, so a keyboard user is where the question is.
  useEffect(() => {
    if (asking) confirmation.current?.querySelector('input')?.focus();
  }, [asking]);

  const cancel = () => {
    setAsking(false);
    setTyped('');
    setOutcome(null);
    // The focus goes back where it came from, not to the top of the page.
    setTimeout(() => opener.current?.focus(), 0);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim().toLowerCase() !== email.toLowerCase()) {
      setOutcome({ kind: 'error', text: profileText.deleteConfirmMismatch });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const refused = await deleteAccount(supabase, typed.trim());
      if (refused) {
        setOutcome({ kind: 'error', text: refused });
        return;
      }
      toast.success(profileText.accountDeleted);
      await (await supabase()).auth.signOut({ scope: 'local' });
    } catch {
      setOutcome({ kind: 'error', text: profileText.deleteFailed(0) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="grid gap-4" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title" className="text-lg font-semibold">
        Delete my account
      </h2>
      <p className="text-sm text-muted-foreground">{profileText.deleteHelp}</p>
      {asking ? (
        <form
          ref={confirmation}
          className="grid gap-4"
          aria-label="Confirm account deletion"
          onSubmit={(e) => void submit(e)}
        >
          <EmailField
            label={profileText.deleteConfirmLabel(email)}
            autoComplete="off"
            aria-invalid={outcome?.text === profileText.deleteConfirmMismatch || undefined}
            value={typed}
            onValueChange={setTyped}
          />
          <FormMessage outcome={outcome} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="destructive" disabled={busy} aria-busy={busy}>
              Delete my account for good
            </Button>
            <Button type="button" variant="outline" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button
          ref={opener}
          type="button"
          variant="destructive"
          className="justify-self-start"
          onClick={() => setAsking(true)}
        >
          Delete my account
        </Button>
      )}
    </section>
  );
}
