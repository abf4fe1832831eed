/**
 * The password-recovery state, kept in the tab's sessionStorage: a reset link signs the
 * user in and the site asks for a new password; a reload (or a crash of the tab) must ask again
 * until the password is set, the prompt is dismissed or the user signs out. Keyed by the user, so
 * another account signed in later in the tab is never asked.
 */
const KEY = 'engage-password-recovery';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** sessionStorage, or null where it is blocked (privacy settings): the state then lives in memory only. */
function tabStorage(): Store | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function rememberRecovery(userId: string, storage: Store | null = tabStorage()): void {
  try {
    storage?.setItem(KEY, userId);
  } catch {
    // Full or blocked: the prompt still shows now, only not after a reload.
  }
}

export function forgetRecovery(storage: Store | null = tabStorage()): void {
  try {
    storage?.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}

/** True when this tab followed a reset link for this user and the password is not set yet. */
export function recoveryPending(userId: string, storage: Store | null = tabStorage()): boolean {
  try {
    return storage?.getItem(KEY) === userId;
  } catch {
    return false;
  }
}
