import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { conversationServer, INDEX } from './conversations-harness.js';

// POST /api/conversations/answers: the server adds an operator's answer to the assistant's Answers
// document (read, append, upload, delete the old file) one save at a time per assistant. Before, the
// browser did it, and two operators saving at once lost the first answer. Over real HTTP, on PGlite,
// and on PostgreSQL too when TEST_DATABASE_URL is set (testDbTargets).

for (const target of testDbTargets()) {
  describe(`saving answers (${target.name})`, () => {
    const conv = conversationServer(target);

    it('keeps both answers when two operators save at the same moment, in one Answers file', async () => {
      const [first, second] = await Promise.all([
        conv.direct.saveAnswer('Where do I park?', 'Behind the building.'),
        conv.direct.saveAnswer('Do you sell gift cards?', 'Yes, at the front desk.', 'admin-token'),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const { files, text } = await conv.api.answers();
      expect(text).toContain('## Where do I park?\n\nBehind the building.');
      expect(text).toContain('## Do you sell gift cards?\n\nYes, at the front desk.');
      expect(files).toHaveLength(1);

      // And again, onto the document that now exists: three at once, all kept, still one file.
      const more = await Promise.all(
        ['Is there a lift?', 'Can I bring my dog?', 'Where do I park?'].map((q, i) =>
          conv.direct.saveAnswer(q, `Answer ${i + 1}.`),
        ),
      );
      expect(more.map((r) => r.status)).toEqual([200, 200, 200]);
      const after = await conv.api.answers();
      for (const line of [
        '## Is there a lift?\n\nAnswer 1.',
        '## Can I bring my dog?\n\nAnswer 2.',
        '## Where do I park?\n\nAnswer 3.',
        '## Do you sell gift cards?',
      ])
        expect(after.text).toContain(line);
      expect(after.text.match(/## Where do I park\?/g)).toHaveLength(1);
      expect(after.files).toHaveLength(1);
    });

    it('is for operators and admins only, as /api/provider (401 without a token, 403 for a user)', async () => {
      const user = await conv.api.saveAnswer('Q?', 'A.', 'user-token');
      expect(user.status).toBe(403);
      expect(await user.json()).toMatchObject({ error: 'operator_required' });
      const anonymous = await conv.api.send('POST', '/api/conversations/answers', null, {
        assistantId: INDEX,
        question: 'Q?',
        answer: 'A.',
      });
      expect(anonymous.status).toBe(401);
    });

    it('answers bad input with a clear 400 and changes nothing', async () => {
      const before = await conv.api.answers();
      const bad: [unknown, RegExp][] = [
        ['{not json', /must be JSON/],
        [{ assistantId: INDEX, question: 'Q?' }, /answer/],
        [{ assistantId: INDEX, question: '   ', answer: 'A.' }, /question must not be empty/],
        [{ assistantId: INDEX, question: 'Q'.repeat(501), answer: 'A.' }, /at most 500 characters/],
        [{ assistantId: INDEX, question: 'Q?', answer: 'A'.repeat(4001) }, /at most 4000 characters/],
        [{ assistantId: INDEX, question: 'Q?', answer: 'A.', extra: 1 }, /unrecognized/i],
      ];
      for (const [body, message] of bad) {
        const res = await conv.api.send('POST', '/api/conversations/answers', 'operator-token', body);
        const answer = (await res.json()) as { error: string; message: string; field?: string };
        // One error shape: malformed JSON is invalid_json, a wrong shape validation_failed with its field.
        expect(answer.error).toBe(body === '{not json' ? 'invalid_json' : 'validation_failed');
        expect([res.status, `${answer.field ?? ''} ${answer.message}`]).toEqual([
          400,
          expect.stringMatching(message),
        ]);
      }
      const after = await conv.api.answers();
      expect([after.text, after.files.map((f) => f.id)]).toEqual([
        before.text,
        before.files.map((f) => f.id),
      ]);
    });

    it('answers 404 for an assistant the site does not offer, and uploads nothing', async () => {
      const before = await conv.api.answers();
      const res = await conv.api.send('POST', '/api/conversations/answers', 'operator-token', {
        assistantId: 'no-such-assistant',
        question: 'Q?',
        answer: 'A.',
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: 'unknown_assistant' });
      expect((await conv.api.answers()).files.map((f) => f.id)).toEqual(before.files.map((f) => f.id));
    });
  });
}
