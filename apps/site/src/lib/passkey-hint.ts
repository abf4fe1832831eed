/**
 * Whether this browser has signed in with, or added, a passkey of this site. Passkey autofill
 * (usePasskeyAutofill) asks the server for a challenge when the email field is focused; only browsers
 * known to hold a passkey do, so a visitor without one never spends the per-address passkey limit
 * (30 ceremonies in 5 minutes) nor adds challenge rows. A passkey synced to a new device is offered
 * by "Sign in with a passkey" until its first use there.
 */
const KEY = 'engage.passkey';

export function rememberPasskey(): void {
  try {
    window.localStorage.setItem(KEY, '1');
  } catch {
    // Storage refused (private mode, quota): autofill then waits for the button, nothing else changes.
  }
}

export function hasPasskeyHint(): boolean {
  try {
    return window.localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}
