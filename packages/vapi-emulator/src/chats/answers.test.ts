import { testDbTargets } from '@engage/db/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { DONT_KNOW, NO_DOCUMENTS } from '@engage/vapi-emulator';
import { minimalDocx, minimalPdf } from '@engage/vapi-emulator/testing';
import { DELAY, keys, useChatEmulator } from './chat-harness.js';

for (const target of testDbTargets()) {
  describe(`chats with the local assistant: answers (${target.name})`, () => {
    let t = Date.parse('2026-11-24T09:00:00Z');
    /** How many times a file's passages were read for indexing. */
    let contentReads = 0;
    const h = useChatEmulator(target, {
      now: () => new Date(t),
      advance: (ms) => void (t += ms),
      onContentRead: () => void contentReads++,
    });
    const { send, created, upload, webChat, answer } = h;
    let base: string;
    let assistantId: string;
    beforeAll(() => void ({ base, assistantId } = h));

    it('answers a question from an attached file with the public key, and a follow-up in the same session', async () => {
      const first = await webChat({ assistantId, input: 'When are refunds paid?' });
      expect(first).toEqual({
        id: expect.any(String),
        sessionId: expect.any(String),
        output: [
          {
            role: 'assistant',
            content: 'From Refunds: "Refunds are paid to the original card within 14 days of the return."',
          },
        ],
      });
      const reads = contentReads;
      const followUp = await webChat({ sessionId: first.sessionId, input: 'Can sale items be refunded?' });
      expect(followUp.sessionId).toBe(first.sessionId);
      expect(answer(followUp)).toBe(
        'From Refunds: "Items bought on sale can be exchanged but not refunded."',
      );
      // The index was built once: the second question read no file again.
      expect(contentReads).toBe(reads);

      // The operator sees the chat with the conversation before it.
      const res = await fetch(`${base}/chat/${followUp.id}`, {
        headers: { Authorization: `Bearer ${keys.privateKey}` },
      });
      expect(await res.json()).toMatchObject({
        id: followUp.id,
        sessionId: first.sessionId,
        assistantId,
        input: 'Can sale items be refunded?',
        messages: [
          { role: 'user', content: 'When are refunds paid?' },
          { role: 'assistant', content: answer(first) },
        ],
        output: [{ role: 'assistant', content: answer(followUp) }],
      });
    });

    it.each(['What is the capital of France?', 'Who won the football world cup?', 'What day is it today?'])(
      'says it does not know %j instead of quoting an unrelated passage',
      async (question) => {
        const chat = await webChat({ assistantId, input: question });
        expect(answer(chat)).toBe(DONT_KNOW);
      },
    );

    it('takes a message array (the last user message is the question) and greets a bare hello', async () => {
      const chat = await webChat({
        assistantId,
        input: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'When are refunds paid?' },
        ],
      });
      expect(answer(chat)).toContain('within 14 days');
      expect(answer(await webChat({ assistantId, input: 'Hello!' }))).toBe('Welcome to the store!');
    });

    it('answers from a v2 knowledge base (PDF and DOCX) once its files are ready; without tools it says it has no documents', async () => {
      const kb = await created<{ id: string }>(await send('/v2/knowledge-base', { name: 'Office' }));
      const pdf = await upload(
        'lockers.pdf',
        minimalPdf(['Lockers are on the second floor next to the kitchen.']),
      );
      const docx = await upload(
        'parking.docx',
        minimalDocx(['Visitors may park for free in the basement garage.']),
      );
      for (const fileId of [pdf, docx])
        await created(await send(`/v2/knowledge-base/${kb.id}/file`, { fileId }));
      const toolId = (
        (await (
          await fetch(`${base}/v2/knowledge-base/${kb.id}`, {
            headers: { Authorization: `Bearer ${keys.privateKey}` },
          })
        ).json()) as { toolId: string }
      ).toolId;
      const office = { model: { provider: 'openai', model: 'gpt-4o', toolIds: [toolId] } };
      // Still indexing: nothing to answer from yet.
      expect(answer(await webChat({ assistant: office, input: 'Where are the lockers?' }))).toBe(DONT_KNOW);
      t += DELAY;
      expect(answer(await webChat({ assistant: office, input: 'Where are the lockers?' }))).toBe(
        '"Lockers are on the second floor next to the kitchen."',
      );
      expect(answer(await webChat({ assistant: office, input: 'Where can visitors park?' }))).toBe(
        '"Visitors may park for free in the basement garage."',
      );
      const bare = { model: { provider: 'openai', model: 'gpt-4o' } };
      expect(answer(await webChat({ assistant: bare, input: 'When are refunds paid?' }))).toBe(NO_DOCUMENTS);
    });
  });
}
