import { useCallback, useEffect, useRef } from 'react';
import { hasPasskeyHint, rememberPasskey } from '@/lib/passkey-hint';
import type { SupabaseClient } from '@/lib/supabase';

/** The browser offers passkeys in the email field's autofill (WebAuthn conditional UI). */
async function conditionalMediationAvailable(): Promise<boolean> {
  const credential = (globalThis as { PublicKeyCredential?: typeof PublicKeyCredential }).PublicKeyCredential;
  try {
    return (await credential?.isConditionalMediationAvailable?.()) === true;
  } catch {
    return false;
  }
}

interface CeremonyError {
  code?: string;
  status?: number;
  name?: string;
  cause?: { name?: string };
}

/**
 * A refusal that is no news to the user: they dismissed the prompt, the page cancelled it, or the
 * request could not be made (offline, the per-address limit); the button still works and says why.
 */
const isQuiet = ({ code, status, name, cause }: CeremonyError) =>
  code === 'ERROR_CEREMONY_ABORTED' ||
  cause?.name === 'AbortError' ||
  cause?.name === 'NotAllowedError' ||
  status === 429 ||
  name === 'AuthRetryableFetchError';

/**
 * Passkey autofill on the sign-in form (WebAuthn conditional UI): once the email field is first
 * focused, in a browser that holds a passkey of this site (passkey-hint.ts), a pending conditional
 * request lets the browser list the user's passkeys under the field. Picking one signs in; a server
 * refusal goes to `onError`; a challenge that expired while the prompt waited (5 minutes) is asked for
 * again. `stop` cancels it before the "Sign in with a passkey" button starts its own ceremony (the
 * browser runs one at a time); leaving the form cancels it too.
 */
export function usePasskeyAutofill(
  supabase: () => Promise<SupabaseClient>,
  onError: (error: unknown) => void,
): { start: () => void; stop: () => void } {
  const pending = useRef<AbortController | null>(null);
  const stop = useCallback(() => {
    pending.current?.abort();
    pending.current = null;
  }, []);
  useEffect(() => stop, [stop]);

  const start = useCallback(() => {
    if (pending.current || !hasPasskeyHint()) return;
    const controller = new AbortController();
    pending.current = controller;
    void (async () => {
      if (!(await conditionalMediationAvailable())) return; // stays pending: never asked again here
      for (;;) {
        const { error } = await (
          await supabase()
        ).auth.signInWithPasskey({
          options: { mediation: 'conditional', signal: controller.signal },
        });
        if (controller.signal.aborted) return;
        // The browser held the prompt past the challenge's life: ask again with a new one.
        if (error?.code === 'webauthn_challenge_expired' || error?.code === 'webauthn_challenge_not_found')
          continue;
        if (pending.current === controller) pending.current = null;
        if (!error) rememberPasskey();
        else if (!isQuiet(error as CeremonyError)) onError(error);
        return;
      }
    })();
  }, [supabase, onError]);

  return { start, stop };
}
