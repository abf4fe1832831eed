import { SignInPage } from '@/features/auth/components/sign-in-page';

/** A visitor's sign-up from the navigation. */
export function Component() {
  return <SignInPage tab="signup" />;
}
