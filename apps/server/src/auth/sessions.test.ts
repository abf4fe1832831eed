import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { createSession, findSession, rotateRefreshToken } from './sessions.js';
import { createUser } from './user-store.js';

const amr = [{ method: 'password', timestamp: 0 }];

for (const target of testDbTargets()) {
  describe(`refresh-token rotation on ${target.name}`, () => {
    let db: Db;
    let userId: string;
    beforeAll(async () => {
      db = await target.open(serverMigrations());
      userId = (
        await createUser(db, { email: 'rotate@example.com', password: 'not-so-secret1', emailConfirm: true })
      ).id;
    });
    afterAll(() => db.close());

    const rotate = (token: string, reuseMs: number, at: number) =>
      db.transaction((tx) => rotateRefreshToken(tx, token, reuseMs, new Date(at)));
    const tokenOf = (r: Awaited<ReturnType<typeof rotate>>) => {
      if ('revokeSession' in r) throw new Error('unexpected revocation');
      return r.refreshToken;
    };

    it('issues a new token on each rotation and replays the active one for its parent', async () => {
      const { refreshToken: t0 } = await createSession(db, userId, { amr });
      const now = Date.now();
      const t1 = tokenOf(await rotate(t0, 0, now));
      expect(t1).not.toBe(t0);
      // A client that lost the response presents t0 again: it gets t1 back, whatever the time.
      expect(tokenOf(await rotate(t0, 0, now + 3_600_000))).toBe(t1);
      const t2 = tokenOf(await rotate(t1, 0, now));
      expect(t2).not.toBe(t1);
    });

    it('tolerates a concurrent refresh within the reuse interval and revokes after it', async () => {
      const { session, refreshToken: t0 } = await createSession(db, userId, { amr });
      const now = Date.now();
      const t1 = tokenOf(await rotate(t0, 10_000, now));
      tokenOf(await rotate(t1, 10_000, now)); // t1 revoked, t2 active: t0 is now two behind
      // Within 10 s of t0's revocation: another child (concurrent tabs), the session lives.
      const sibling = tokenOf(await rotate(t0, 10_000, now + 5_000));
      expect(sibling).not.toBe(t0);
      tokenOf(await rotate(sibling, 10_000, now + 6_000)); // the family moves on past t0's children
      // After the interval: reuse means theft; the whole session is to be revoked.
      const late = await rotate(t0, 10_000, now + 10_001);
      expect(late).toEqual({ revokeSession: session.id });
      expect(await findSession(db, session.id)).not.toBeNull();
    });

    it('answers an unknown token with refresh_token_not_found', async () => {
      await expect(rotate('no-such-token', 0, Date.now())).rejects.toMatchObject({
        status: 400,
        code: 'refresh_token_not_found',
      });
    });
  });
}
