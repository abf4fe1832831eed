// The cap on pending passkey challenges holds under concurrency (review finding): the count and the
// insert were one statement, but under PostgreSQL's READ COMMITTED concurrent inserts each counted
// only the rows committed before them, so a burst of option requests went past the cap together.
// With a small cap, many requests at once: exactly the cap's worth are answered, the others get
// 429, and the table never holds more. On PGlite and (with TEST_DATABASE_URL) PostgreSQL.
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMigrations } from '../../server.js';
import { authApiHeaders } from './passkey-harness.js';
import { startAuthTestServer, type AuthTestServer } from './server-harness.js';

const CAP = 5;
const AT_ONCE = 40;

for (const target of testDbTargets()) {
  describe(`the cap on pending passkey challenges, under concurrency (${target.name})`, () => {
    let db: Db;
    let srv: AuthTestServer;

    beforeAll(async () => {
      db = await target.open(allMigrations());
      srv = await startAuthTestServer(db, { maxPendingChallenges: CAP });
    });
    afterAll(async () => {
      await srv?.close();
      await db?.close();
    });

    const pending = async () =>
      (await db.query<{ n: number }>('select count(*)::int as n from auth_webauthn_challenges')).rows[0]!.n;

    const askOptions = () =>
      srv.app.request('/auth/v1/passkeys/authentication/options', {
        method: 'POST',
        headers: authApiHeaders(srv),
        body: '{}',
      });

    it('answers exactly the cap, refuses the rest with 429, and never stores more', async () => {
      for (const round of [1, 2]) {
        const answers = await Promise.all(Array.from({ length: AT_ONCE }, askOptions));
        const statuses = answers.map((r) => r.status);
        // The first round fills the cap; the second finds it full.
        expect(statuses.filter((s) => s === 200)).toHaveLength(round === 1 ? CAP : 0);
        expect(statuses.filter((s) => s === 429)).toHaveLength(round === 1 ? AT_ONCE - CAP : AT_ONCE);
        const refused = answers.find((r) => r.status === 429)!;
        expect(await refused.json()).toMatchObject({ code: 'over_request_rate_limit' });
        expect(await pending()).toBe(CAP);
      }
    });
  });
}
