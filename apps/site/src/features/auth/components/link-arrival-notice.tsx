import { dismissLinkArrival, useLinkArrival } from '@/lib/link-arrival';
import { useSession } from '@/lib/session';
import { authText } from '../messages';

/**
 * Says what a mail link did on the page it landed on: after a sign-up's confirmation link, that the
 * address is confirmed and the user signed in. Above the page, until dismissed.
 */
export function LinkArrivalNotice() {
  const arrival = useLinkArrival();
  const { user } = useSession();
  // Said while that session lasts: after a sign-out "you are signed in" would be untrue.
  if (arrival !== 'confirmed' || !user) return null;
  return (
    <div className="border-b border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900">
      <div
        role="status"
        className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-x-4 gap-y-2"
      >
        <p className="text-sm font-medium">{authText.emailConfirmed}</p>
        <button
          type="button"
          onClick={dismissLinkArrival}
          className="rounded-md px-2 py-1 text-sm underline underline-offset-2 hover:bg-emerald-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}
