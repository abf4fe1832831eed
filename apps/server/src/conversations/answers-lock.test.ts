import { randomUUID } from 'node:crypto';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import type { AnswersStore } from './answers-store.js';
import { assistantLock, type AssistantLock } from './assistant-lock.js';
import { verify } from './conversations-harness.js';
import { conversationRoutes } from './routes.js';
import { cachedScan } from './unanswered-cache.js';

// Review findings on the lock a save holds (conversations/assistant-lock.ts):
// - a save that waited too long for another instance's lock was answered 503 "database unavailable";
//   it is a 409 save_in_progress saying to try again;
// - a save the provider took, whose lock then failed to COMMIT or release, was answered 503 though
//   the answer was saved; it is a 200, and the kept scan is dropped.

function routes(lock: AssistantLock, assistantId: string) {
  const saved: string[] = [];
  let scans = 0;
  const store: AnswersStore = {
    answeredQuestions: async () => new Map(),
    saveAnswer: async (_id, question) => void saved.push(question),
  };
  const app = conversationRoutes({
    verify,
    store,
    lock,
    dismiss: async () => undefined,
    siteAssistantIds: [assistantId],
    cache: cachedScan(),
    scan: async () => ({ questions: [], scanned: ++scans, scannedAt: new Date(0).toISOString() }),
  });
  const send = (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: { Authorization: 'Bearer operator-token', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    saved,
    save: (question: string) => send('POST', '/answers', { assistantId, question, answer: 'Behind.' }),
    scanned: async () => ((await (await send('GET', '/unanswered')).json()) as { scanned: number }).scanned,
  };
}

describe('a save whose lock fails after the provider took the answer', () => {
  it('answers 200 (the answer is saved) and drops the kept scan', async () => {
    const failingRelease: AssistantLock = async (_key, fn) => {
      await fn();
      throw Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
    };
    const { saved, save, scanned } = routes(failingRelease, 'asst_index');
    expect(await scanned()).toBe(1);
    const res = await save('Where do I park?');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ saved: true, mailed: 0, notMailed: 0 });
    expect(saved).toEqual(['Where do I park?']);
    expect(await scanned()).toBe(2);
  });
});

// PGlite is one process: its lock is the in-process queue, with no wait to time out. The test runs
// where several instances can meet: on PostgreSQL (TEST_DATABASE_URL, set by CI).
const postgres = testDbTargets().find((t) => t.name === 'postgres');
if (!postgres)
  console.warn('[assistant-lock] ran on PGlite only: the lock-wait timeout needs TEST_DATABASE_URL');

for (const target of postgres ? [postgres] : []) {
  describe(`a save waiting for another instance's lock (${target.name})`, () => {
    it('answers 409 save_in_progress once the wait times out, and saves nothing', async () => {
      // An id of this test's own: advisory locks are database-wide, other suites use asst_index.
      const assistantId = `asst_lock_${randomUUID()}`;
      const db: Db = await target.open();
      let release = () => {};
      try {
        // Another instance's save in flight: a transaction holding the assistant's advisory lock.
        const held = new Promise<void>((locked) => {
          const holding = db.transaction(async (tx) => {
            await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`engage:answers:${assistantId}`]);
            locked();
            await new Promise<void>((r) => (release = r));
          });
          void holding.catch(() => undefined);
        });
        await held;
        const { saved, save } = routes(assistantLock(db, { lockTimeoutMs: 200 }), assistantId);
        const res = await save('Where do I park?');
        expect(res.status, await res.clone().text()).toBe(409);
        expect(await res.json()).toEqual({
          error: 'save_in_progress',
          message: 'Another answer for this assistant is being saved. Try again in a moment.',
        });
        expect(saved).toEqual([]);

        // Once the other save is done, the same save goes through.
        release();
        const again = await save('Where do I park?');
        expect(again.status).toBe(200);
        expect(saved).toEqual(['Where do I park?']);
      } finally {
        release();
        await db.close();
      }
    });
  });
}
