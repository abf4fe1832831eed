import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EmulatorQueryable } from '../db.js';
import {
  conversationCutoff,
  DEFAULT_CONVERSATION_DAYS,
  RETENTION_EVERY_MS,
  scheduleConversationRetention,
} from './retention.js';

// The cutoff is pure; the schedule is driven by fake timers. The prune's SQL runs against real
// databases in packages/vapi-emulator/src/conversations/calls.test.ts.

describe('conversationCutoff', () => {
  it('is `days` whole days before now', () => {
    const now = new Date('2026-11-26T12:00:00.000Z');
    expect(conversationCutoff(now, 30).toISOString()).toBe('2026-10-27T12:00:00.000Z');
    expect(conversationCutoff(now, 1).toISOString()).toBe('2026-11-25T12:00:00.000Z');
    expect(DEFAULT_CONVERSATION_DAYS).toBe(30);
  });

  it.each([0, -1, 1.5, 3651, Number.NaN])('refuses %s days', (days) => {
    expect(() => conversationCutoff(new Date(), days)).toThrow(RangeError);
  });
});

describe('scheduleConversationRetention', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Records the cutoffs the prune's three deletes were given; answers that nothing was deleted. */
  function recordingDb() {
    const cutoffs: string[] = [];
    const db: EmulatorQueryable = {
      async query<T>(sql: string, params?: readonly unknown[]) {
        if (sql.startsWith('delete from emulator_calls')) cutoffs.push((params?.[0] as Date).toISOString());
        return { rows: [] as T[], rowCount: 0 };
      },
      async exec() {},
    };
    return { db, cutoffs };
  }

  it('prunes at start, then every hour, with the cutoff of that moment, until stopped', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T00:00:00.000Z') });
    const { db, cutoffs } = recordingDb();
    const retention = scheduleConversationRetention({ db, days: 30, now: () => new Date() });
    await retention.runOnce();
    expect(cutoffs).toEqual(['2026-10-27T00:00:00.000Z']);

    await vi.advanceTimersByTimeAsync(RETENTION_EVERY_MS - 1);
    expect(cutoffs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(cutoffs).toEqual(['2026-10-27T00:00:00.000Z', '2026-10-27T01:00:00.000Z']);

    await retention.stop();
    await vi.advanceTimersByTimeAsync(5 * RETENTION_EVERY_MS);
    expect(cutoffs).toHaveLength(2);
  });

  it('logs a failed prune and tries again at the next turn', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T00:00:00.000Z') });
    let fail = true;
    const errors: string[] = [];
    const db: EmulatorQueryable = {
      async query<T>() {
        if (fail) throw new Error('database down');
        return { rows: [] as T[], rowCount: 1 };
      },
      async exec() {},
    };
    const logged: Record<string, unknown>[] = [];
    const retention = scheduleConversationRetention({
      db,
      logger: { error: (msg) => errors.push(msg), info: (_msg, fields) => logged.push(fields ?? {}) },
    });
    expect(await retention.runOnce()).toBeNull();
    expect(errors).toEqual(['emulator: pruning old conversations failed']);
    fail = false;
    await vi.advanceTimersByTimeAsync(RETENTION_EVERY_MS);
    expect(logged).toEqual([{ days: 30, calls: 1, chats: 1, sessions: 1 }]);
    await retention.stop();
  });

  it('refuses a retention out of range at once', () => {
    const { db } = recordingDb();
    expect(() => scheduleConversationRetention({ db, days: 0 })).toThrow(RangeError);
  });
});
