import { PageHeading } from '@/components/page-heading';
import { spaceOut } from '@/lib/letter-spacing';
import { usePublicConfig } from '@/lib/public-config';

export function Component() {
  const { ownerDomain } = usePublicConfig();
  return <PageHeading>{spaceOut(ownerDomain)}</PageHeading>;
}
