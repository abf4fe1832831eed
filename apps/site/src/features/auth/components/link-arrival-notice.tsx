import { dismissLinkArrival, useLinkArrival } from '@/lib/link-arrival';
import { useSession } from '@/lib/session';
import { authText } from '../messages';
import { PageNotice } from './page-notice';

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
    <PageNotice tone="success" role="status" onDismiss={dismissLinkArrival}>
      {authText.emailConfirmed}
    </PageNotice>
  );
}
