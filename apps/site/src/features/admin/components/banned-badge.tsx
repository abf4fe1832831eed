import { Badge } from '@/components/ui/badge';
import type { AdminUser } from '../api/client';
import { formatDateTime } from '../lib/format';
import { isBanned } from './user-actions-menu';

/** "Banned" on a row while the user's ban lasts, with its end. */
export function BannedBadge({ user }: { user: AdminUser }) {
  if (!isBanned(user)) return null;
  return <Badge variant="destructive">Banned until {formatDateTime(user.banned_until as string)}</Badge>;
}
