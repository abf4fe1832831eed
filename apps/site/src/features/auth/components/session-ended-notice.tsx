import { dismissSessionEnded, useSession } from '@/lib/session';
import { authText } from '../messages';

/**
 * Says why the user is signed out when the auth service refused their session (their account was
 * deleted, the session revoked: lib/session-end.ts), above the page, until they sign in again or
 * dismiss it. On a protected page the sign-in screen is right below it.
 */
export function SessionEndedNotice() {
  const { sessionEnded } = useSession();
  if (!sessionEnded) return null;
  return (
    <div className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
      <div
        role="alert"
        className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-x-4 gap-y-2"
      >
        <p className="text-sm font-medium">{authText.sessionEnded}</p>
        <button
          type="button"
          onClick={dismissSessionEnded}
          className="rounded-md px-2 py-1 text-sm underline underline-offset-2 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-700"
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}
