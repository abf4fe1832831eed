import { useSession, useSessionSource } from '@/lib/session';
import { authText } from '../messages';
import { PageNotice } from './page-notice';

/**
 * Says why the user is signed out when the auth service refused their session (their account was
 * deleted, the session revoked: lib/session-end.ts), above the page, until they sign in again or
 * dismiss it. On a protected page the sign-in screen is right below it.
 */
export function SessionEndedNotice() {
  const { sessionEnded } = useSession();
  const { dismissEnded } = useSessionSource();
  if (!sessionEnded) return null;
  return (
    <PageNotice tone="warning" role="alert" onDismiss={dismissEnded}>
      {authText.sessionEnded}
    </PageNotice>
  );
}
