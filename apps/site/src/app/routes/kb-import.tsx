import { PageHeading } from '@/components/page-heading';
import { usePublicConfig } from '@/lib/public-config';

export function Component() {
  const { provider } = usePublicConfig();
  return <PageHeading>{provider.name} Knowledge Base Bulk Import Tool</PageHeading>;
}
