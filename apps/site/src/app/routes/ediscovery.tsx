import { PageHeading } from '@/components/page-heading';

export function Component() {
  return <PageHeading>s a l e s e n g i n e e r</PageHeading>;
}
