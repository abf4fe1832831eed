import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMigrations } from '../server.js';
import { startProviderTestServer, type ProviderTestServer } from './server-harness.js';

// The stored files of the embedded provider (/provider/storage/…) are served as
// inert downloads: the route's own sandboxing CSP survives the site-wide headers, and the type is
// one of the provider's allowed types whatever the uploader claimed.

for (const target of testDbTargets()) {
  describe(`the provider's stored files served inert (${target.name})`, () => {
    let db: Db;
    let server: ProviderTestServer;

    beforeAll(async () => {
      db = await target.open(allMigrations());
      server = await startProviderTestServer(db, async () => null);
    });

    afterAll(async () => {
      await server.close();
      await db.close();
    });

    const upload = async (name: string, type: string, text: string) => {
      const form = new FormData();
      form.append('file', new File([text], name, { type }));
      const res = await fetch(`${server.origin}/provider/file`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.keys.emulatorPrivateKey}` },
        body: form,
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { url: string }).url;
    };

    it.each([
      ['a script type', 'notes.txt', 'text/javascript', 'text/plain'],
      ['an HTML type', 'notes.md', 'text/html', 'text/markdown'],
      ['an allowed type of its own', 'data.csv', 'text/csv', 'text/csv'],
    ])(
      'serves an upload claiming %s as an attachment of an allowed type, sandboxed',
      async (_, name, claimed, served) => {
        const url = await upload(name, claimed, 'alert(document.cookie)');
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe(served);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
        expect(await res.text()).toBe('alert(document.cookie)');
      },
    );

    it("keeps the site's own policy on the site's pages", async () => {
      const res = await fetch(`${server.origin}/config.json`);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    });
  });
}
