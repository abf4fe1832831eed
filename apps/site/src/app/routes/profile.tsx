import { ProfilePage } from '@/features/profile/components/profile-page';

/** The signed-in user's profile, behind the route guard. */
export function Component() {
  return <ProfilePage />;
}
