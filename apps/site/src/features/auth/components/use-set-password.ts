import { useState, type FormEvent } from 'react';
import { useNewPassword } from '@/components/ui/credential-fields';
import { useSupabase } from '@/lib/session';
import { authText } from '../messages';

/**
 * The steps of choosing a new password while signed in (PUT /user through auth-js), shared by the
 * invitation page and the password-recovery dialog: the two fields must match, the form is busy
 * while the request runs, and a refusal (or a thrown failure) becomes `error`. `onDone` runs once the
 * password is set, with the fields already cleared.
 */
export function useSetPassword({
  initialError = null,
  onDone,
}: {
  /** The error shown before any submit (a failed link's), or a function reading it once. */
  initialError?: string | null | (() => string | null);
  onDone: () => void;
}) {
  const supabase = useSupabase();
  const newPassword = useNewPassword();
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!newPassword.matches) {
      setError(authText.passwordsDoNotMatch);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { error: failed } = await (await supabase()).auth.updateUser({ password: newPassword.password });
      if (failed) {
        setError(failed.message);
        return;
      }
      newPassword.clear();
      onDone();
    } catch (thrown) {
      setError((thrown as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return {
    /** Props for NewPasswordFields, the mismatch marked. */
    fields: { ...newPassword.fields, mismatch: error === authText.passwordsDoNotMatch },
    error,
    busy,
    submit: (e: FormEvent) => void submit(e),
  };
}
