import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it, vi } from 'vitest';
import { conversationServer } from './conversations-harness.js';

// A visitor the assistant could not answer leaves an address; the owner's answer, saved on
// /conversations, is mailed to it once. Over real HTTP, on PGlite and on PostgreSQL with
// TEST_DATABASE_URL (testDbTargets).

interface Request {
  id: string;
  email: string;
  question: string;
  questionKey: string;
  answeredAt: string | null;
  sentAt: string | null;
  sendError: string | null;
}

for (const target of testDbTargets()) {
  describe(`answers by mail (${target.name})`, () => {
    const conv = conversationServer(target);
    const outbox = async (to: string) =>
      (
        await conv.db.query<{ subject: string; text_body: string; html_body: string }>(
          "select subject, text_body, html_body from mail_outbox where kind = 'visitor_answer' and to_address = $1",
          [to],
        )
      ).rows;
    const waiting = async (token = 'operator-token') =>
      (
        await conv.api.ok<{ requests: Request[] }>(
          await conv.api.send('GET', '/api/conversations/answer-requests', token),
        )
      ).requests;

    it('takes an address for an unanswered question, never says it back, and mails the answer once', async () => {
      const turn = await conv.api.ask('Do you open on Sundays?');
      const res = await conv.api.requestAnswer(turn.id, 'Visitor@Example.com');
      const text = await res.text();
      expect(res.status, text).toBe(201);
      expect(JSON.parse(text)).toEqual({ questions: 1, keepDays: 30 });
      expect(text).not.toMatch(/example\.com/i);

      // The same address again (any case) for the same question: still one request.
      const again = await conv.api.ask('do you open on sundays');
      expect((await conv.api.requestAnswer(again.id, 'visitor@example.com')).status).toBe(201);
      const listed = (await waiting()).filter((r) => /sundays/i.test(r.question));
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ email: 'Visitor@Example.com', sentAt: null, answeredAt: null });
      expect(listed[0]!.questionKey).toBe('asst_index\ndo you open on sundays');

      const saved = await conv.api.saveAnswer('Do you open on Sundays?', 'Yes, from 10 to 4.');
      expect(await conv.api.ok(saved)).toEqual({ saved: true, mailed: 1, notMailed: 0 });
      const mails = await outbox('Visitor@Example.com');
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Your question to Engage');
      expect(mails[0]!.text_body).toContain('Do you open on Sundays?');
      expect(mails[0]!.text_body).toContain('Yes, from 10 to 4.');
      expect(mails[0]!.text_body).toContain('This is a one-time reply');
      // No link of any kind: nothing to sign in with, nothing to track.
      expect(mails[0]!.text_body + mails[0]!.html_body).not.toMatch(/https?:|<a |<img/i);
      expect((await waiting()).find((r) => r.id === listed[0]!.id)?.sentAt).toEqual(expect.any(String));

      // Answering the question again mails nobody twice, and a retry of a sent mail is refused.
      await conv.api.ok(await conv.api.saveAnswer('Do you open on Sundays?', 'Yes, 10 to 5 now.'));
      expect(await outbox('Visitor@Example.com')).toHaveLength(1);
      const retry = await conv.api.send(
        'POST',
        `/api/conversations/answer-requests/${listed[0]!.id}/send`,
        'admin-token',
      );
      expect(retry.status).toBe(409);
      expect(await retry.json()).toMatchObject({ error: 'already_sent' });
    });

    it('shows the question on the Unanswered tab at once, though the tab keeps its scan a minute', async () => {
      await conv.api.unanswered(); // scanned and kept
      const turn = await conv.api.ask('Can I bring my dog?');
      expect(await conv.api.unanswered()).not.toContain('Can I bring my dog?');
      expect((await conv.api.requestAnswer(turn.id, 'dogs@example.com')).status).toBe(201);
      expect(await conv.api.unanswered()).toContain('Can I bring my dog?');
    });

    it('refuses a malformed address in place, saying why', async () => {
      const turn = await conv.api.ask('Can I pay by card?');
      for (const email of ['', 'no-at-sign', 'a@b', 'two@x.com, three@y.com', `${'a'.repeat(250)}@x.com`]) {
        const res = await conv.api.requestAnswer(turn.id, email);
        expect(res.status, email).toBe(400);
        const body = (await res.json()) as { error: string; field: string; message: string };
        expect(body).toMatchObject({ error: 'validation_failed', field: 'email' });
        expect(body.message.length).toBeGreaterThan(10);
      }
      expect((await waiting()).some((r) => /card/i.test(r.question))).toBe(false);
    });

    it('takes no address for a conversation that does not exist or that the assistant answered', async () => {
      const missing = await conv.api.requestAnswer('no-such-chat', 'a@example.com');
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: 'conversation_not_found' });
      for (const id of ['../assistant', '..', '.', 'a/b', 'x'.repeat(201)]) {
        const badId = await conv.api.requestAnswer(id, 'a@example.com');
        expect(badId.status, id).toBe(400);
        expect(await badId.json()).toMatchObject({ error: 'validation_failed', field: 'conversation.id' });
      }

      await conv.api.ok(
        await conv.api.saveAnswer('Where do I park my car?', 'Behind the building on Main Street.'),
      );
      // Once the provider has read the new Answers document, the assistant answers from it.
      const answered = await vi.waitFor(
        async () => {
          const turn = await conv.api.ask('Where do I park my car?');
          expect(turn.output[0]!.content).toContain('Main Street');
          return turn;
        },
        { timeout: 10_000, interval: 200 },
      );
      const res = await conv.api.requestAnswer(answered.id, 'a@example.com');
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error: 'nothing_unanswered' });
    });

    it('shows addresses to operators and admins only, and audits each reader’s first sight', async () => {
      const turn = await conv.api.ask('Do you deliver?');
      expect((await conv.api.requestAnswer(turn.id, 'reader-check@example.com')).status).toBe(201);
      expect((await conv.api.send('GET', '/api/conversations/answer-requests', 'user-token')).status).toBe(
        403,
      );
      expect((await conv.api.send('GET', '/api/conversations/answer-requests', null)).status).toBe(401);

      const audited = async () =>
        Number(
          (
            await conv.db.query<{ n: string }>(
              "select count(*) as n from admin_audit_log where action = 'visitor_address.read' and detail = 'Do you deliver?'",
            )
          ).rows[0]!.n,
        );
      expect(await audited()).toBe(0);
      await waiting();
      await waiting();
      expect(await audited()).toBe(1);
      await waiting('admin-token');
      expect(await audited()).toBe(2);
    });

    it('deletes the addresses with their conversation', async () => {
      const turn = await conv.api.ask('Is there parking for bikes?');
      expect((await conv.api.requestAnswer(turn.id, 'bikes@example.com')).status).toBe(201);
      expect((await waiting()).some((r) => r.email === 'bikes@example.com')).toBe(true);
      const deleted = await conv.api.send('DELETE', `/api/provider/chat/${turn.id}`, 'operator-token');
      expect(deleted.status).toBe(200);
      expect((await waiting()).some((r) => r.email === 'bikes@example.com')).toBe(false);
    });
  });
}

describe('answers by mail: limits', () => {
  const conv = conversationServer(undefined, {
    ANSWER_REQUESTS_PER_EMAIL_PER_DAY: '2',
    ANSWER_REQUESTS_PER_CLIENT_PER_HOUR: '4',
  });

  it('lets one address ask only a few times a day, and one network only a few times an hour', async () => {
    const turns = await Promise.all(['One?', 'Two?', 'Three?', 'Four?', 'Five?'].map((q) => conv.api.ask(q)));
    expect((await conv.api.requestAnswer(turns[0]!.id, 'target@example.com')).status).toBe(201);
    expect((await conv.api.requestAnswer(turns[1]!.id, 'TARGET@example.com')).status).toBe(201);
    const third = await conv.api.requestAnswer(turns[2]!.id, 'target@example.com');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3600);
    expect(await third.json()).toMatchObject({ error: 'rate_limited' });

    // The fourth request from this address of any kind; the fifth is refused whatever the address.
    expect((await conv.api.requestAnswer(turns[3]!.id, 'other@example.com')).status).toBe(201);
    const fifth = await conv.api.requestAnswer(turns[4]!.id, 'someone-else@example.com');
    expect(fifth.status).toBe(429);
    expect(await fifth.json()).toMatchObject({ error: 'rate_limited' });
  });
});

describe('answers by mail: a failed send', () => {
  // Nothing listens on port 1: every send fails, as with an SMTP server that is down.
  const conv = conversationServer(undefined, { SMTP_URL: 'smtp://127.0.0.1:1' });

  it('is shown on the request and can be retried, and the answer is saved all the same', async () => {
    const turn = await conv.api.ask('Do you sell gift cards?');
    expect((await conv.api.requestAnswer(turn.id, 'gifts@example.com')).status).toBe(201);
    const saved = await conv.api.saveAnswer('Do you sell gift cards?', 'Yes.');
    expect(await conv.api.ok(saved)).toEqual({ saved: true, mailed: 0, notMailed: 1 });
    const { requests } = await conv.api.ok<{ requests: Request[] }>(
      await conv.api.send('GET', '/api/conversations/answer-requests', 'operator-token'),
    );
    expect(requests[0]).toMatchObject({ sentAt: null, answeredAt: expect.any(String) });
    expect(requests[0]!.sendError).toMatch(/ECONNREFUSED|connect/i);
    const retry = await conv.api.send(
      'POST',
      `/api/conversations/answer-requests/${requests[0]!.id}/send`,
      'operator-token',
    );
    expect(retry.status).toBe(502);
    expect(await retry.json()).toMatchObject({ error: 'send_failed' });
    expect((await conv.api.answers()).text).toContain('## Do you sell gift cards?');
  });
});

describe('answers by mail with hosted auth and no SMTP_URL', () => {
  // No outbox an operator reads and no SMTP server: a mail would reach nobody.
  const conv = conversationServer(undefined, {
    SUPABASE_URL: 'https://project.supabase.co',
    SUPABASE_ANON_KEY: 'anon',
  });

  it('are not offered: the route refuses, and takes no address', async () => {
    const turn = await conv.api.ask('Do you open on Sundays?');
    const res = await conv.api.requestAnswer(turn.id, 'visitor@example.com');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not_offered' });
    const { rows } = await conv.db.query<{ n: number }>('select count(*)::int as n from answer_requests');
    expect(rows[0]!.n).toBe(0);
  });
});
