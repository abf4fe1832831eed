// Shared by the specs of <engage-widget> on other sites (embed.spec.ts, embed-element.spec.ts,
// embed-states.spec.ts): the origins, the Content-Security-Policy docs/embedding.md documents, a shop's
// page that loads /embed.js, and a server for it. The listed origins are the server's EMBED_ORIGINS
// (playwright.config.ts).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import type { Page } from '@playwright/test';

export const ENGAGE = `http://127.0.0.1:${process.env.E2E_PORT}`;
const PORT = Number(process.env.E2E_EMBED_PORT);
/** In the server's EMBED_ORIGINS (embed.spec.ts's). */
export const LISTED = `http://127.0.0.2:${PORT}`;
/** Not listed. */
export const UNLISTED = `http://127.0.0.3:${PORT}`;
/** Listed too: the addresses of embed-element.spec.ts's and embed-states.spec.ts's sites. */
export const ELEMENT_SITE = '127.0.0.4';
export const STATES_SITE = '127.0.0.5';
const ENGAGE_WS = ENGAGE.replace(/^http/, 'ws');

/**
 * The two directives docs/embedding.md tells a site to add, read from that document itself (so the
 * test runs under exactly what is documented), for this run's origin.
 */
function documentedDirectives(): string {
  const readme = readFileSync(path.join(import.meta.dirname, '..', 'docs', 'embedding.md'), 'utf8');
  const line = readme.split('\n').find((l) => /^\s*script-src https:\/\/engage\.example;/.test(l));
  if (!line) throw new Error('docs/embedding.md documents no CSP for <engage-widget>.');
  return line
    .trim()
    .replaceAll('wss://engage.example', ENGAGE_WS)
    .replaceAll('https://engage.example', ENGAGE);
}

/**
 * The host page's policy: nothing by default, the documented directives, and the shop's own inline
 * styles (its hostile stylesheet), which the widget does not need.
 */
export const CSP = `default-src 'none'; ${documentedDirectives()}; style-src 'unsafe-inline'`;

/** A shop's page: CSS that tries to restyle everything, /embed.js (or `script`), and `body`. */
export const shopPage = (
  body: string,
  script = `<script src="${ENGAGE}/embed.js" async></script>`,
) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A shop</title>
<style>
  * { color: red !important; background: yellow !important; font-family: serif !important; letter-spacing: 3px !important; }
  button, section, p { display: none !important; }
  engage-widget { transform: scale(0.1); }
</style>
${script}
</head><body><main><h1>A shop</h1></main>
${body}
</body></html>`;

/**
 * A site of its own at `http://<ip>:E2E_EMBED_PORT` (a real server: Chromium lets only a page served
 * from a loopback address reach Engage's loopback one), serving under the documented CSP whatever
 * page a test gives it. Each spec file has its own address: they may run at the same time.
 */
export async function startHost(ip: string) {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? '/', 'http://host').pathname);
    res.writeHead(html ? 200 : 404, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': CSP,
    });
    res.end(html ?? 'Not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(PORT, ip, () => resolve());
  });
  const origin = `http://${ip}:${PORT}`;
  let next = 0;
  return {
    origin,
    /** Opens `html` on this site, at a path of its own. */
    open: async (page: Page, html: string) => {
      const at = `/page-${(next += 1)}`;
      pages.set(at, html);
      await page.goto(`${origin}${at}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** CSP violations the page reports, to prove the widget needs nothing the CSP does not allow. */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}
