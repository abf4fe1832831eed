import { PageHeading } from '@/components/page-heading';

export function Component() {
  return <PageHeading>User Management Dashboard</PageHeading>;
}
