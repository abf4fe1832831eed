import { testDbTargets } from '@engage/db/testing';
import { MAX_ANSWERS_FILE_BYTES } from '@engage/http-contract/conversations';
import { createVapiClient } from '@engage/vapi-client';
import { describe, expect, it } from 'vitest';
import { answersStore } from './answers-store.js';
import { conversationServer, INDEX } from './conversations-harness.js';

// Review finding: Answers files saved before the size limit existed can be far over it. Refusing
// every save to such a file also refused the shorter replacement that the 413 itself advises; only
// a save that leaves the file over the limit AND larger than it was is refused.

for (const target of testDbTargets()) {
  describe(`an Answers file already over the size limit (${target.name})`, () => {
    const conv = conversationServer(target);

    /** The store as it was before the limit: straight to the embedded provider, a larger cap. */
    const oldStore = () => {
      const { origin, keys } = conv.server;
      return answersStore(
        createVapiClient({ baseUrl: `${origin}/provider`, token: keys.emulatorPrivateKey! }),
        // The stored URLs name the site's public origin; the same path is served here.
        (input, init) => fetch(`${origin}${new URL(String(input)).pathname}`, init),
        { maxFileBytes: 4 * MAX_ANSWERS_FILE_BYTES },
      );
    };

    it('takes a replacement that makes it smaller, and refuses one that makes it larger', async () => {
      // 30 answers of 12 kB (4000 three-byte characters): about 360 kB, over the 300 kB limit.
      const long = '漢'.repeat(4000);
      const store = oldStore();
      for (let i = 1; i <= 30; i++) await store.saveAnswer(INDEX, `Question ${i}?`, long);
      const over = await conv.direct.answers();
      expect(new TextEncoder().encode(over.text).length).toBeGreaterThan(MAX_ANSWERS_FILE_BYTES);

      // Through the server (the normal limit): the shorter replacement is saved.
      const shorter = await conv.direct.saveAnswer('Question 1?', 'Shorter now.');
      expect(shorter.status, await shorter.clone().text()).toBe(200);
      const smaller = await conv.direct.answers();
      expect(smaller.text).toContain('## Question 1?\n\nShorter now.');
      expect(smaller.text.length).toBeLessThan(over.text.length);

      // A new answer would make it larger still: refused, and nothing written.
      const grown = await conv.direct.saveAnswer('Question 31?', 'A new answer.');
      expect(grown.status).toBe(413);
      expect(await grown.json()).toMatchObject({ error: 'answers_file_full' });
      const after = await conv.direct.answers();
      expect(after.text).toBe(smaller.text);
      expect(after.files.map((f) => f.id)).toEqual(smaller.files.map((f) => f.id));
    });
  });
}
