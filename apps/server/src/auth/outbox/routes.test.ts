// /_mail over real HTTP: the reported attack (a signed-out stranger reads a recovery link) is refused.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '@engage/db';
import { testDbTargets } from '@engage/db/testing';
import { outboxPageSchema } from '@engage/http-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../app-harness.js';
import { serverMigrations } from '../../db/migrations/index.js';
import { createLogger } from '../../platform/logger.js';
import { createPublicOrigin } from '../../platform/public-origin.js';
import { createAuthRuntime } from '../embedded.js';
import { createUser } from '../user-store.js';
import { OUTBOX_COOKIE, tokenMatches } from './access.js';
import { mailLinks } from './links.js';

interface OutboxServer {
  url: string;
  token: string;
  anonKey: string;
  app: TestApp['app'];
  logLines: string[];
  close(): Promise<void>;
}

/** The whole app on a loopback port, with a data directory whose outbox token the test reads. */
async function startOutboxServer(db: Db, env: Record<string, string> = {}): Promise<OutboxServer> {
  const logLines: string[] = [];
  let runtime!: ReturnType<typeof createAuthRuntime>;
  let origin!: ReturnType<typeof createPublicOrigin>;
  const test = await startTestApp({
    db,
    env: { HOST: '127.0.0.1', PORT: '0', ...env },
    deps: ({ config, secrets }) => {
      origin = createPublicOrigin(config);
      runtime = createAuthRuntime({ config, db, secrets, publicOrigin: origin.get });
      return {
        logger: createLogger('debug', (line) => logLines.push(line)),
        verifyAccessToken: runtime.verifyAccessToken,
        auth: runtime.service,
        authAnonKey: runtime.anonKey,
        publicOrigin: origin.get,
      };
    },
  });
  const { server } = await test.listen();
  const port = (server.address() as AddressInfo).port;
  origin.listening(port);
  return {
    url: `http://127.0.0.1:${port}`,
    token: test.secrets.all().mailOutboxToken as string,
    anonKey: runtime.anonKey as string,
    app: test.app,
    logLines,
    close: () => test.close(),
  };
}

const page = { Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' };

describe('tokenMatches', () => {
  it('accepts the token only, whatever length or encoding is sent instead', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    for (const wrong of [undefined, '', 'ab', 'abcd', 'ABC', 'x'.repeat(10_000)])
      expect(tokenMatches('abc', wrong)).toBe(false);
  });
});

describe('mailLinks', () => {
  it('reads each "Label: URL" line of a mail and nothing else', () => {
    expect(
      mailLinks('Follow this link.\n\nOr enter this code: 123456\n\nReset password: http://x.test/v?t=1&u=2'),
    ).toEqual([{ label: 'Reset password', href: 'http://x.test/v?t=1&u=2' }]);
  });
});

for (const target of testDbTargets()) {
  describe(`the outbox behind its token (${target.name})`, () => {
    let db: Db;
    let srv: OutboxServer;
    beforeAll(async () => {
      db = await target.open(serverMigrations());
      srv = await startOutboxServer(db, { ADMIN_EMAILS: 'admin@example.com' });
      await createUser(db, { email: 'admin@example.com', password: 'admin pw 1', emailConfirm: true });
      // The reported attack: a stranger asks for the admin's password reset, then opens the outbox.
      const recover = await fetch(`${srv.url}/auth/v1/recover`, {
        method: 'POST',
        headers: { apikey: srv.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com' }),
      });
      expect(recover.status).toBe(200);
    }, 60_000);
    afterAll(async () => {
      await srv.close();
      await db.close();
    });

    it('generates a 256-bit token in DATA_DIR', () => {
      expect(srv.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('refuses a signed-out visitor with 401 and lists nothing (the reported attack, from this machine)', async () => {
      for (const target of ['/_mail', '/_mail/', '/_mail?token=wrong', '/_mail?token=']) {
        const res = await fetch(`${srv.url}${target}`, { headers: page });
        const body = await res.text();
        expect([target, res.status]).toEqual([target, 401]);
        expect(body).toContain('Outbox locked');
        expect(body).not.toContain('admin@example.com');
        expect(body).not.toContain('Reset your password');
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      // As a reverse proxy on the same host sends it: loopback socket, forwarded headers, no token.
      const proxied = await fetch(`${srv.url}/_mail`, {
        headers: { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Host': 'engage.example', Accept: '*/*' },
      });
      expect(proxied.status).toBe(401);
      expect(await proxied.text()).not.toContain('admin@example.com');
      // Each mail, and the JSON form, need it too.
      const { rows } = await db.query<{ id: string }>('select id from mail_outbox limit 1');
      const one = await fetch(`${srv.url}/_mail/${rows[0]?.id}`);
      expect(one.status).toBe(401);
      expect(await one.text()).not.toContain('/auth/v1/verify');
      const json = await fetch(`${srv.url}/_mail`, { headers: { Accept: 'application/json' } });
      expect(json.status).toBe(401);
      expect(await json.json()).toMatchObject({ error: 'outbox_token_required' });
      // A cookie with the wrong value is no better.
      const cookie = await fetch(`${srv.url}/_mail`, { headers: { Cookie: `${OUTBOX_COOKIE}=nope` } });
      expect(cookie.status).toBe(401);
    });

    it('sets an HttpOnly, SameSite=Strict cookie for /_mail on the first visit and drops the token from the URL', async () => {
      const first = await fetch(`${srv.url}/_mail?token=${srv.token}`, { headers: page, redirect: 'manual' });
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/_mail');
      expect(first.headers.get('referrer-policy')).toBe('no-referrer');
      const setCookie = first.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(new RegExp(`^${OUTBOX_COOKIE}=`));
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Strict');
      expect(setCookie).toContain('Path=/_mail');
      expect(setCookie).not.toContain('Secure'); // http://localhost: a Secure cookie would never come back

      const cookie = setCookie.split(';')[0] as string;
      const list = await fetch(`${srv.url}/_mail`, { headers: { ...page, Cookie: cookie } });
      expect(list.status).toBe(200);
      expect(list.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await list.text();
      expect(html).toContain('<meta name="referrer" content="no-referrer" />');
      const id = /<a href="\/_mail\/([0-9a-f-]{36})">Reset your password/.exec(html)?.[1];
      expect(id).toBeTruthy();
      const detail = await fetch(`${srv.url}/_mail/${id}`, { headers: { ...page, Cookie: cookie } });
      expect(await detail.text()).toMatch(/<a href="http:\/\/localhost:\d+\/auth\/v1\/verify\?token=/);
      expect((await fetch(`${srv.url}/_mail/not-an-id`, { headers: { Cookie: cookie } })).status).toBe(404);
      // A message's own URL with the token redirects to itself without it.
      const direct = await fetch(`${srv.url}/_mail/${id}?token=${srv.token}`, {
        headers: page,
        redirect: 'manual',
      });
      expect([direct.status, direct.headers.get('location')]).toEqual([303, `/_mail/${id}`]);
    });

    it('answers a script with ?token= directly, the JSON form included, newest first with the links', async () => {
      const res = await fetch(`${srv.url}/_mail?token=${encodeURIComponent(srv.token)}`, {
        headers: { Accept: 'application/json' },
      });
      expect(res.status).toBe(200);
      const outbox = outboxPageSchema.parse(await res.json());
      expect(outbox.delivery).toBe('outbox');
      expect(outbox.mails[0]).toMatchObject({
        to: 'admin@example.com',
        kind: 'recovery',
        subject: 'Reset your password',
      });
      expect(outbox.mails[0]?.links[0]?.href).toMatch(/^http:\/\/localhost:\d+\/auth\/v1\/verify\?token=/);
    });

    it('still shows the outbox to this machine only, token or not', async () => {
      const remote = await srv.app.request(`/_mail?token=${srv.token}`);
      expect(remote.status).toBe(403);
      expect((await srv.app.request('/_mail')).status).toBe(401);
    });

    it('never writes the token to the request log', async () => {
      await fetch(`${srv.url}/_mail?token=${srv.token}`, { headers: page, redirect: 'manual' });
      await fetch(`${srv.url}/_mail?token=wrong-${srv.token}`, { headers: page });
      expect(srv.logLines.some((l) => l.includes('/_mail'))).toBe(true);
      expect(srv.logLines.filter((l) => l.includes(srv.token))).toEqual([]);
    });
  });
}

describe('the outbox cookie behind https', () => {
  let db: Db;
  let srv: OutboxServer;
  beforeAll(async () => {
    db = await (testDbTargets()[0] as ReturnType<typeof testDbTargets>[number]).open(serverMigrations());
    srv = await startOutboxServer(db, { PUBLIC_URL: 'https://engage.example' });
  }, 60_000);
  afterAll(async () => {
    await srv.close();
    await db.close();
  });

  it('is Secure when PUBLIC_URL is https', async () => {
    const res = await new Promise<{ status?: number; cookie?: string[] }>((resolve, reject) => {
      httpRequest(`${srv.url}/_mail?token=${srv.token}`, { headers: page }, (r) => {
        r.resume();
        resolve({ status: r.statusCode, cookie: r.headers['set-cookie'] });
      })
        .on('error', reject)
        .end();
    });
    expect(res.status).toBe(303);
    expect(res.cookie?.[0]).toContain('Secure');
  });
});
