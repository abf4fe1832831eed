// Type tests of the outbox contract: the admin panel and the server's answers share this shape.
import { describe, expectTypeOf, it } from 'vitest';
import { outboxPageSchema, type MailDelivery, type OutboxMail, type OutboxPage } from './index.js';

describe('outbox contract', () => {
  it('a mail carries its address, subject, time, text and links, and whether they are masked', () => {
    expectTypeOf<OutboxMail>().toEqualTypeOf<{
      id: string;
      kind: string;
      to: string;
      subject: string;
      created_at: string;
      text: string;
      links: { label: string; href: string }[];
      masked: boolean;
    }>();
    expectTypeOf<MailDelivery>().toEqualTypeOf<'outbox' | 'smtp' | 'hosted'>();
    expectTypeOf(outboxPageSchema.parse).returns.toEqualTypeOf<OutboxPage>();
  });
});
