import { useCallback, useEffect, useState } from 'react';
import { errorText, type Outcome } from './form-message';

/**
 * A profile section's list (second factors, passkeys) and its actions: the list loaded once (a failure
 * said where the section's messages go), `reload` after a change, and `act`, which runs one action at a
 * time and shows its outcome, or its failure in the section's own words (`describe`).
 */
export function useProfileList<T>(
  load: () => Promise<T[]>,
  describe: (error: unknown) => string = errorText,
) {
  const [items, setItems] = useState<T[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const reload = useCallback(async () => setItems(await load()), [load]);
  useEffect(() => {
    let live = true;
    load().then(
      (all) => live && setItems(all),
      (error: unknown) => live && setOutcome({ kind: 'error', text: errorText(error) }),
    );
    return () => {
      live = false;
    };
  }, [load]);

  const act = async (action: () => Promise<Outcome>) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await action());
    } catch (error) {
      setOutcome({ kind: 'error', text: describe(error) });
    } finally {
      setBusy(false);
    }
  };

  return { items, reload, busy, outcome, act };
}
