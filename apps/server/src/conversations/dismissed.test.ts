import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { conversationServer } from './conversations-harness.js';

// POST /api/conversations/dismissed: small talk ("hi", "thanks") an operator does not mean to answer
// leaves the Unanswered tab at once, on every instance's next scan, and stays out when asked again.

for (const target of testDbTargets()) {
  describe(`dismissing an unanswered question (${target.name})`, () => {
    const conv = conversationServer(target);

    it('takes the question out of the tab, however it is spelled when asked again', async () => {
      await conv.api.ask('Thanks a lot');
      await conv.api.ask('Is there a lift?');
      expect((await conv.api.unanswered()).sort()).toEqual(['Is there a lift?', 'Thanks a lot']);

      const res = await conv.api.dismiss('Thanks a lot');
      expect(res.status).toBe(200);
      expect(await conv.api.unanswered()).toEqual(['Is there a lift?']);

      // Asked again, in other words' case and spacing: still dismissed. Dismissing twice is fine.
      await conv.api.ask('thanks   A LOT!');
      expect(await conv.api.unanswered()).toEqual(['Is there a lift?']);
      expect((await conv.api.dismiss('Thanks a lot')).status).toBe(200);
      // Nothing was written into the assistant's documents.
      expect((await conv.api.answers()).files).toEqual([]);
    });

    it('is for operators and admins only, for the site assistants only, and answers bad input with 400', async () => {
      expect((await conv.api.dismiss('hi', 'user-token')).status).toBe(403);
      expect((await conv.api.dismiss('hi', null as unknown as string)).status).toBe(401);
      const unknown = await conv.api.dismiss('hi', 'admin-token', 'asst_elsewhere');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: 'unknown_assistant' });
      for (const body of [
        {},
        { assistantId: 'asst_index' },
        { assistantId: 'asst_index', question: '   ' },
      ]) {
        const res = await conv.api.send('POST', '/api/conversations/dismissed', 'operator-token', body);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({ error: 'validation_failed' });
      }
      const tooLong = await conv.api.dismiss('x'.repeat(5000));
      expect(tooLong.status).toBe(400);
    });
  });
}
