import { AcceptInvite } from '@/features/auth/components/accept-invite';

/** An invitation's landing page: the invited user chooses a password. */
export function Component() {
  return <AcceptInvite />;
}
