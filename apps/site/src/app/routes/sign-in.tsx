import { SignInPage } from '@/features/auth/components/sign-in-page';

/** A visitor's way in from the navigation. */
export function Component() {
  return <SignInPage tab="signin" />;
}
