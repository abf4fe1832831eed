import { PageHeading } from '@/components/page-heading';

export function Component() {
  return <PageHeading>c a s e . o n b o a r d i n g</PageHeading>;
}
