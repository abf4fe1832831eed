// The account actions of /api/admin: the CSV export, filtered and streamed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testDbTargets } from '@engage/db/testing';
import { describe, expect, it } from 'vitest';
import { serverMigrations } from '../db/migrations/index.js';
import { parseConfig } from '../platform/config.js';
import { createLogger } from '../platform/logger.js';
import { adminActionsContext, tokens } from './actions-harness.js';
import { adminRoutes } from './routes.js';
import type { UserAdmin } from './types.js';

for (const target of testDbTargets()) {
  describe(`/api/admin account actions on ${target.name}`, () => {
    const { db, asAdmin, audit } = adminActionsContext(target);

    it('GET /users.csv streams the filtered list as RFC 4180 CSV, formula cells defused, and audits the export', async () => {
      await db.query(
        `insert into auth_users (email, created_at, email_confirmed_at, raw_app_meta_data) values
           ('=cmd|calc@evil.io', now() - interval '1 day', null, '{}'),
           ('+plus@x.io', now() - interval '2 days', now(), '{"role":"operator"}'),
           ('"quoted",comma@x.io', now() - interval '3 days', now(), '{}'),
           ('@at@x.io', now() - interval '4 days', null, '{}'),
           ('-minus@x.io', now() - interval '5 days', now(), '{}')`,
      );
      const res = await asAdmin('GET', '/users.csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.headers.get('cache-control')).toBe('no-store');
      const text = await res.text();
      const lines = text.split('\r\n');
      expect(lines[0]).toBe('id,email,created_at,email_confirmed_at,last_sign_in_at,role,banned_until');
      expect(lines.at(-1)).toBe('');
      const emails = lines.slice(1, -1).map((l) => l.split(',')[1]);
      // Newest first across export pages of 2 (the seeded admin and user are newest).
      expect(lines).toHaveLength(1 + 7 + 1);
      expect(emails.slice(2)).toEqual([
        "'=cmd|calc@evil.io",
        "'+plus@x.io",
        '"""quoted""',
        "'@at@x.io",
        "'-minus@x.io",
      ]);
      expect(text).toContain('"""quoted"",comma@x.io"');
      expect(text).toMatch(/'\+plus@x\.io,\d{4}-[^,]+Z,\d{4}-[^,]+Z,,operator,\r\n/);

      const pending = await (await asAdmin('GET', '/users.csv?status=unverified&search=X.IO')).text();
      expect(
        pending
          .split('\r\n')
          .slice(1, -1)
          .map((l) => l.split(',')[1]),
      ).toEqual(["'@at@x.io"]);
      const none = await (await asAdmin('GET', '/users.csv?search=nobody')).text();
      expect(none).toBe('id,email,created_at,email_confirmed_at,last_sign_in_at,role,banned_until\r\n');
      expect((await audit()).map((e) => [e.action, e.target_email, e.detail])).toEqual([
        ['user.export', null, '{"search":"","status":"all"}'],
        ['user.export', null, '{"search":"X.IO","status":"unverified"}'],
        ['user.export', null, '{"search":"nobody","status":"all"}'],
      ]);
      expect((await asAdmin('GET', '/users.csv?status=weird')).status).toBe(400);
    });
  });
}

describe('GET /users.csv streams', () => {
  it('writes each page as it comes: 100 000 users are never read ahead of the client', async () => {
    const PAGE = 500;
    let pagesRead = 0;
    const userAdmin = {
      kind: 'embedded',
      async *exportUsers() {
        for (let p = 0; p < 200; p++) {
          pagesRead++;
          yield Array.from({ length: PAGE }, (_, i) => ({
            id: `00000000-0000-4000-8000-${String(p * PAGE + i).padStart(12, '0')}`,
            email: `u${p * PAGE + i}@x.io`,
            created_at: '2025-01-01T00:00:00.000Z',
            email_confirmed_at: null,
            last_sign_in_at: null,
            is_admin: false,
            role: 'user' as const,
            banned_until: null,
          }));
        }
      },
    } as unknown as UserAdmin; // only exportUsers is reached by this route
    const dir = mkdtempSync(path.join(tmpdir(), 'engage-admin-csv-'));
    const db = await testDbTargets()[0]!.open(serverMigrations());
    try {
      const app = adminRoutes({
        config: parseConfig({ DATA_DIR: dir, SITE_DIR: dir }),
        db,
        logger: createLogger('silent'),
        verifyAccessToken: async (token) => tokens[token] ?? null,
        userAdmin,
      });
      const res = await app.request('/users.csv', { headers: { Authorization: 'Bearer admin-token' } });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await reader.read();
      // A stream buffers a little ahead, never the whole export.
      expect(pagesRead).toBeLessThan(10);
      let bytes = 0;
      let lines = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        bytes += chunk.value.byteLength;
        for (const b of chunk.value) if (b === 10) lines++;
      }
      expect(pagesRead).toBe(200);
      expect(bytes).toBeGreaterThan(0);
      expect(lines).toBeGreaterThan(99_000);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
