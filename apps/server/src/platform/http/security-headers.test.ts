import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { buildCsp, securityHeaders } from './security-headers.js';

const scriptSrc = (csp: string | null) =>
  (csp ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === 'script-src')
    ?.slice(1) ?? [];

describe('the Content-Security-Policy', () => {
  it('allows no inline script by default, and never with unsafe-inline', () => {
    const sources = scriptSrc(buildCsp({ connect: [] }));
    expect(sources).toContain("'self'");
    expect(sources.some((s) => s.startsWith("'sha256-") || s === "'unsafe-inline'")).toBe(false);
  });

  it('allows on a response only the inline scripts its route hashed', async () => {
    const app = new Hono();
    app.use('*', securityHeaders({ connect: [] }));
    app.get('/page', (c) => {
      c.set('cspScriptHashes', ["'sha256-abc='"]);
      return c.html('<script>x</script>');
    });
    app.get('/other', (c) => c.text('no scripts'));
    const page = scriptSrc((await app.request('/page')).headers.get('Content-Security-Policy'));
    expect(page).toContain("'sha256-abc='");
    expect(page).not.toContain("'unsafe-inline'");
    const other = scriptSrc((await app.request('/other')).headers.get('Content-Security-Policy'));
    expect(other).not.toContain("'sha256-abc='");
  });
});
