import { testDbTargets } from '@engage/db/testing';
import { MAX_ANSWERS_FILE_BYTES } from '@engage/http-contract/conversations';
import { describe, expect, it } from 'vitest';
import type { AnswersStore } from './answers-store.js';
import type { AssistantLock } from './assistant-lock.js';
import { conversationServer, verify } from './conversations-harness.js';
import { conversationRoutes } from './routes.js';
import { cachedScan } from './unanswered-cache.js';

// The bounds of POST /api/conversations/answers (review findings):
// - only the site's own assistants: any other id is refused before the per-assistant lock is taken
//   or the provider asked, so neither can be exhausted by callers inventing ids;
// - the Answers document stays under MAX_ANSWERS_FILE_BYTES: the save that would pass it is refused
//   with a readable 413 and nothing is written.

describe('saving an answer for an assistant the site does not offer', () => {
  const SITE = ['asst_index', 'asst_ediscovery', 'asst_onboarding'];

  function routesWithSpies() {
    const locked: string[] = [];
    const saved: string[] = [];
    const lock: AssistantLock = async (key, fn) => {
      locked.push(key);
      return fn();
    };
    const store: AnswersStore = {
      answeredQuestions: async () => new Map(),
      saveAnswer: async (assistantId) => void saved.push(assistantId),
    };
    const app = conversationRoutes({
      verify,
      store,
      lock,
      siteAssistantIds: SITE,
      dismiss: async () => undefined,
      cache: cachedScan(),
      scan: async () => ({ questions: [], scanned: 0, scannedAt: new Date(0).toISOString() }),
    });
    const save = (assistantId: string) =>
      app.request('/answers', {
        method: 'POST',
        headers: { Authorization: 'Bearer operator-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ assistantId, question: 'Where do I park?', answer: 'Behind.' }),
      });
    return { locked, saved, save };
  }

  it('answers 404 with a readable message, and takes no lock and asks the provider nothing', async () => {
    const { locked, saved, save } = routesWithSpies();
    // Many distinct ids at once: none of them gets a lock (or a queue) of its own.
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => save(`asst_made_up_${i}`)));
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({
        error: 'unknown_assistant',
        message: expect.stringMatching(/This site offers no assistant "asst_made_up_\d+"/),
      });
    }
    expect([locked, saved]).toEqual([[], []]);

    // The site's own assistants are saved, each under its lock.
    for (const id of SITE) expect((await save(id)).status).toBe(200);
    expect([locked, saved]).toEqual([SITE, SITE]);
  });
});

for (const target of testDbTargets()) {
  describe(`the Answers file's size limit (${target.name})`, () => {
    const conv = conversationServer(target);

    it('refuses the answer that would pass it with a 413 saying so, and writes nothing', async () => {
      // Answers of 4000 characters of three UTF-8 bytes each: 12 kB apiece, so the 25th would pass
      // 300 kB. The limit counts bytes as uploaded, not characters.
      const long = '漢'.repeat(4000);
      let saved = 0;
      let refused: Response | null = null;
      while (!refused && saved < 40) {
        const res = await conv.direct.saveAnswer(`Question ${saved + 1}?`, long);
        if (res.status === 200) saved++;
        else refused = res;
      }
      expect(saved).toBe(24);
      const before = await conv.direct.answers();
      expect(new TextEncoder().encode(before.text).length).toBeLessThanOrEqual(MAX_ANSWERS_FILE_BYTES);

      expect(refused!.status).toBe(413);
      expect(await refused!.json()).toEqual({
        error: 'answers_file_full',
        message: expect.stringMatching(/^The Answers file is full: .*300 kB.*Nothing was saved\./),
      });
      const after = await conv.direct.answers();
      expect(after.text).toBe(before.text);
      expect(after.files.map((f) => f.id)).toEqual(before.files.map((f) => f.id));
      expect(after.text).not.toContain('## Question 25?');

      // Replacing an answer already there with a shorter one still goes through.
      expect((await conv.direct.saveAnswer('Question 1?', 'Shorter now.')).status).toBe(200);
      expect((await conv.direct.answers()).text).toContain('## Question 1?\n\nShorter now.');
    });
  });
}
