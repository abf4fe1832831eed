import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitStoreFor } from '../db/limit-store.js';
import { serverMigrations } from '../db/migrations/index.js';
import { openSecretStore } from '../platform/secrets.js';
import { loadAuthKeys } from './keys.js';
import type { Mail } from './mail.js';
import { createAuthService, type AuthService } from './service.js';
import { createUser } from './user-store.js';

// Guessing over many addresses. The service runs with its default limits
// and the server's limit store (PostgreSQL's table on PostgreSQL), the caller's address injected as
// the routes pass the socket's (auth/http/routes.ts); the address rule itself is tested in packages/rate-limit.
const password = 'owner-password-1';
const v4 = (i: number) => `198.51.${(i >> 8) & 255}.${i & 255}`;

for (const target of testDbTargets()) {
  describe(`guess limits on ${target.name}`, () => {
    let db: Db;
    let service: AuthService;
    let t = Date.parse('2026-11-25T10:00:00Z');
    const sent: Mail[] = [];
    const codeIn = (to: string) =>
      /code: (\d{6})/.exec(sent.filter((m) => m.to === to).at(-1)?.text ?? '')?.[1];

    beforeAll(async () => {
      db = await target.open(serverMigrations());
      service = createAuthService({
        db,
        keys: loadAuthKeys(openSecretStore(mkdtempSync(path.join(tmpdir(), 'engage-keys-')))),
        mailer: { send: async (m) => void sent.push(m) },
        siteTitle: 'Engage',
        adminEmails: [],
        publicOrigin: () => 'http://site.test',
        refreshReuseIntervalSeconds: 10,
        limitStore: limitStoreFor(db),
        now: () => t,
      });
    });
    afterAll(() => db.close());

    it('counts 200 addresses of one IPv6 /64 as one caller on /verify (429 past the limit)', async () => {
      const statuses: number[] = [];
      for (let i = 1; i <= 200; i++) {
        const ip = `2001:db8:23:3:${i.toString(16)}::${(i * 7).toString(16)}`;
        const answer = await service
          .verifyOtp({ token_hash: 'f'.repeat(56), type: 'recovery' }, { ip })
          .catch((error: { status: number }) => error);
        statuses.push((answer as { status: number }).status);
      }
      expect(statuses.slice(0, 30).every((s) => s === 403)).toBe(true);
      expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
      // Another /64 is another caller.
      await expect(
        service.verifyOtp({ token_hash: 'f'.repeat(56), type: 'recovery' }, { ip: '2001:db8:23:4::1' }),
      ).rejects.toMatchObject({ status: 403 });
    });

    it('burns an emailed code after 5 wrong tries from any addresses: the right one then fails too', async () => {
      const email = 'recover-me@example.com';
      await createUser(db, { email, password, emailConfirm: true });
      await service.recover({ email }, undefined, { ip: v4(1) });
      const code = codeIn(email)!;
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 5; i++)
        await expect(
          service.verifyOtp({ email, token: wrong, type: 'recovery' }, { ip: v4(100 + i) }),
        ).rejects.toMatchObject({ status: 403, code: 'otp_expired' });
      await expect(
        service.verifyOtp({ email, token: code, type: 'recovery' }, { ip: v4(1) }),
      ).rejects.toMatchObject({ status: 403, code: 'otp_expired' });

      // A new mail starts afresh: 4 wrong tries, then the right code signs in.
      t += 61_000;
      await service.recover({ email }, undefined, { ip: v4(1) });
      const fresh = codeIn(email)!;
      const other = String((Number(fresh) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 4; i++)
        await expect(
          service.verifyOtp({ email, token: other, type: 'email' }, { ip: v4(110 + i) }),
        ).rejects.toMatchObject({ code: 'otp_expired' });
      await expect(
        service.verifyOtp({ email, token: fresh, type: 'recovery' }, { ip: v4(1) }),
      ).resolves.toMatchObject({ token_type: 'bearer' });
    });

    it('refuses a link forged from the address and a guessed code (GoTrue computes SHA-224(email + code))', async () => {
      const email = 'forged-link@example.com';
      await createUser(db, { email, password, emailConfirm: true });
      await service.recover({ email }, undefined, { ip: v4(3) });
      const code = codeIn(email)!;
      const forged = createHash('sha224')
        .update(email + code)
        .digest('hex');
      await expect(
        service.verifyOtp({ token_hash: forged, type: 'recovery' }, { ip: v4(4) }),
      ).rejects.toMatchObject({
        status: 403,
        code: 'otp_expired',
      });
      // The mailed link still works (and is 56 hex digits, as GoTrue's).
      const link = new URL(/https?:\/\/\S+/.exec(sent.filter((m) => m.to === email).at(-1)!.text)![0]);
      const token = link.searchParams.get('token')!;
      expect(token).toMatch(/^[0-9a-f]{56}$/);
      await expect(
        service.verifyOtp({ token_hash: token, type: 'recovery' }, { ip: v4(3) }),
      ).resolves.toMatchObject({
        token_type: 'bearer',
      });
    });

    it('burns the code under a burst of concurrent wrong guesses (each counted before it is checked)', async () => {
      const email = 'concurrent@example.com';
      await createUser(db, { email, password, emailConfirm: true });
      await service.recover({ email }, undefined, { ip: v4(2) });
      const code = codeIn(email)!;
      const guesses = Array.from({ length: 60 }, (_, i) =>
        String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
      );
      const results = await Promise.allSettled(
        guesses.map((token, i) => service.verifyOtp({ email, token, type: 'recovery' }, { ip: v4(200 + i) })),
      );
      expect(results.every((r) => r.status === 'rejected')).toBe(true);
      await expect(
        service.verifyOtp({ email, token: code, type: 'recovery' }, { ip: v4(2) }),
      ).rejects.toMatchObject({ code: 'otp_expired' });
    });

    it("never locks the owner out: many wrong passwords from many addresses, the owner's right one still works", async () => {
      const email = 'owner@example.com';
      const home = '203.0.113.10';
      await createUser(db, { email, password, emailConfirm: true });
      await expect(service.passwordGrant({ email, password }, { ip: home })).resolves.toMatchObject({
        token_type: 'bearer',
      });
      const answers: string[] = [];
      for (let i = 0; i < 200; i++) {
        const error = await service
          .passwordGrant({ email, password: `guess-${i}` }, { ip: v4(300 + i) })
          .catch((e: { code: string }) => e);
        answers.push((error as { code: string }).code);
      }
      // 10 wrong passwords are checked, then strangers wait: a right guess is refused as well.
      expect(answers.filter((c) => c === 'invalid_credentials')).toHaveLength(10);
      await expect(service.passwordGrant({ email, password }, { ip: '192.0.2.77' })).rejects.toMatchObject({
        status: 429,
        code: 'over_request_rate_limit',
      });
      // The owner, from the address they signed in from (any address of its /64 for IPv6), is not delayed.
      await expect(service.passwordGrant({ email, password }, { ip: home })).resolves.toMatchObject({
        token_type: 'bearer',
      });
      // The delay grows back one attempt every 30 s, not a lock.
      t += 30_000;
      await expect(service.passwordGrant({ email, password }, { ip: '192.0.2.78' })).resolves.toMatchObject({
        token_type: 'bearer',
      });
    });

    it('limits wrong passwords per account and address (/64), apart from other accounts', async () => {
      const email = 'pair@example.com';
      await createUser(db, { email, password, emailConfirm: true });
      const from = (i: number) => `2001:db8:77:1::${i.toString(16)}`;
      for (let i = 1; i <= 5; i++)
        await expect(
          service.passwordGrant({ email, password: 'nope-nope' }, { ip: from(i) }),
        ).rejects.toMatchObject({
          code: 'invalid_credentials',
        });
      await expect(service.passwordGrant({ email, password }, { ip: from(6) })).rejects.toMatchObject({
        status: 429,
      });
      // The same /64 may still sign in to another account.
      await createUser(db, { email: 'pair-2@example.com', password, emailConfirm: true });
      await expect(
        service.passwordGrant({ email: 'pair-2@example.com', password }, { ip: from(7) }),
      ).resolves.toMatchObject({ token_type: 'bearer' });
      // An unknown address is limited the same way (the answers tell nothing).
      const unknown: string[] = [];
      for (let i = 0; i < 12; i++)
        unknown.push(
          await service
            .passwordGrant({ email: 'nobody-here@example.com', password: 'x-x-x-x' }, { ip: v4(600 + i) })
            .then(
              () => 'signed in',
              (e: { code: string }) => e.code,
            ),
        );
      expect(unknown.slice(0, 10).every((c) => c === 'invalid_credentials')).toBe(true);
      expect(unknown.slice(10).every((c) => c === 'over_request_rate_limit')).toBe(true);
    });
  });
}
