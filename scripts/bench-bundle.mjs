// npm run bench:bundle — every script a visitor's browser downloads on each landing page before any
// input, measured in Chromium (Playwright driving /usr/bin/chromium) on the built site served by the
// real server: as a signed-out visitor and as a signed-in user (a session in localStorage, as auth-js
// stores it). Then what the first ENGAGE click fetches (the voice SDK and the call's room). Sizes are
// the decoded bodies, minified bytes and gzip -9, so they compare with the reported figures; the wire
// carries Brotli, smaller still. Also the official @vapi-ai/web widget page (a minimal page importing
// it eagerly, as its docs show), built offline with Vite, for comparison.
// `--write` replaces the bundle section of docs/benchmarks.md; `--check` fails above the budget;
// `--no-build` measures the site as it is in apps/site/dist.
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { machine, publishSection } from '@engage/bench-doc';
import { PAGES, buildSite, root, startServer, storedSession } from './bench-site.mjs';

/** Every landing page is static HTML with islands (a guarded one's content comes from the server). */
const BUDGET = 35 * 1024;
const budgetOf = () => BUDGET;
/** <engage-widget> before the first click on another site. */
const ELEMENT_BUDGET = 15 * 1024;
const START = '<!-- bench:bundle:start -->';
const END = '<!-- bench:bundle:end -->';
const kb = (n) => (n / 1024).toFixed(1);

/** Records every script response of a page (modulepreloads included) until told to stop. */
function recordScripts(page) {
  const seen = [];
  page.on('response', (response) => {
    const url = response.url();
    const type = response.request().resourceType();
    if (type === 'script' || /\.m?js(\?|$)/.test(url))
      seen.push(
        response.body().then(
          (body) => ({ url, min: body.length, gzip: gzipSync(body, { level: 9 }).length }),
          () => ({ url, min: 0, gzip: 0 }),
        ),
      );
  });
  return seen;
}

/** Network idle, then two quiet seconds more: scripts loaded on idle or by a timer count too. */
async function settle(page, seen) {
  await page.waitForLoadState('networkidle');
  for (let count = -1; count !== seen.length;) {
    count = seen.length;
    await page.waitForTimeout(2000);
    await page.waitForLoadState('networkidle');
  }
}

const sum = async (list) => {
  const all = await Promise.all(list);
  const unique = [...new Map(all.map((s) => [s.url, s])).values()];
  return {
    files: unique.length,
    min: unique.reduce((a, s) => a + s.min, 0),
    gzip: unique.reduce((a, s) => a + s.gzip, 0),
    names: unique.map((s) => `${new URL(s.url).pathname.replace(/^\/assets\//, '')} ${kb(s.gzip)}`),
  };
};

async function measure(browser, url, { session, engage = true } = {}) {
  const context = await browser.newContext();
  if (session)
    await context.addInitScript(({ key, value }) => window.localStorage.setItem(key, value), session);
  const page = await context.newPage();
  const seen = recordScripts(page);
  await page.goto(url);
  await settle(page, seen);
  const before = await sum(seen);
  let click = null;
  let card = null;
  const button = page.getByRole('button', { name: 'ENGAGE' });
  const email = page.getByRole('form', { name: 'Sign in' }).getByLabel('Email');
  if (engage && (await button.count()) > 0) {
    const from = seen.length;
    await button.click();
    await settle(page, seen);
    click = await sum(seen.slice(from));
  } else if (engage && (await email.count()) > 0) {
    // A guarded page's sign-in card: the first press in it brings the app, which runs the card.
    const from = seen.length;
    await email.click();
    await settle(page, seen);
    card = await sum(seen.slice(from));
  }
  await context.close();
  return { before, click, card };
}

/**
 * A visitor follows a link of the navigation: from the static home page that is a full page load
 * (its links are plain links), between the app's pages client-side routing. Measures the scripts
 * the move fetches and the time from the click to the next page's heading (loaded machine: a rough
 * figure), median of `runs`.
 */
async function navigation(browser, from, link, heading, runs = 5) {
  const times = [];
  let fetched = null;
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(from);
    await page.locator('#root[data-hydrated]').waitFor({ state: 'attached' });
    await settle(page, []);
    const seen = recordScripts(page);
    const start = Date.now();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    times.push(Date.now() - start);
    await settle(page, seen);
    fetched = await sum(seen);
    await context.close();
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], fetched };
}

/** The official SDK's widget page: @vapi-ai/web imported eagerly, built with Vite into a temp dir. */
async function vapiPage() {
  const dir = path.join(root, 'node_modules/.cache/engage-bench-vapi-web');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Vapi</title></head><body><button id="b">Start</button><script type="module" src="./main.js"></script></body></html>',
  );
  writeFileSync(
    path.join(dir, 'main.js'),
    "import Vapi from '@vapi-ai/web';\nconst vapi = new Vapi('public-key');\ndocument.getElementById('b').onclick = () => vapi.start('assistant-id');\n",
  );
  await build({
    root: dir,
    logLevel: 'error',
    configFile: false,
    build: { outDir: 'dist', target: 'es2022' },
  });
  const out = path.join(dir, 'dist');
  const { readFileSync } = await import('node:fs');
  const server = http.createServer((req, res) => {
    const file = path.join(out, req.url === '/' ? 'index.html' : req.url.split('?')[0]);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'Content-Type': file.endsWith('.js') ? 'text/javascript' : 'text/html' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, stop: () => server.close() };
}

/** A page of another site with only the widget's script tag and element (docs/embedding.md). */
async function embedPage(engage) {
  const html = `<!doctype html><html lang="en"><head><title>A site</title><script src="${engage}/embed.js" async></script></head><body><engage-widget assistant="asst_index"></engage-widget></body></html>`;
  const server = http.createServer((req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(html),
  );
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, stop: () => server.close() };
}

if (!process.argv.includes('--no-build')) buildSite();
const site = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
  ],
});
const rows = [];
let over = false;
try {
  const session = await storedSession(site.base);
  for (const p of PAGES)
    for (const who of ['signed out', 'signed in']) {
      const r = await measure(browser, site.base + p, { session: who === 'signed in' ? session : null });
      if (r.before.gzip > budgetOf(p)) over = true;
      rows.push({ page: p, who, ...r });
    }
  const moves = [
    {
      what: '`/` → Sign in (full page load)',
      ...(await navigation(browser, `${site.base}/`, 'Sign in', 'Sign in')),
    },
    {
      what: '`/sign-up` → Sign in (client-side, in the app)',
      ...(await navigation(browser, `${site.base}/sign-up`, 'Sign in', 'Sign in')),
    },
  ];
  const host = await embedPage(site.base);
  // Before the first click only: this origin is not in the bench server's EMBED_ORIGINS.
  const element = (await measure(browser, host.url, { engage: false })).before;
  host.stop();
  if (element.gzip > ELEMENT_BUDGET) over = true;
  let vapi = null;
  try {
    const official = await vapiPage();
    vapi = (await measure(browser, official.url, { engage: false })).before;
    official.stop();
  } catch (error) {
    console.error(`The @vapi-ai/web page could not be built: ${error.message}`);
  }

  const cell = (s) => (s ? `${kb(s.min)} / ${kb(s.gzip)} (${s.files} files)` : '—');
  const lines = [
    '## Landing pages: what a visitor downloads (`npm run bench:bundle`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}: Chromium (Playwright, /usr/bin/chromium) loads`,
    'each page of the built site served by the real server and records every script it fetches before any',
    'input (modulepreloads and lazy chunks included; network idle, then quiet for 2 s), then clicks ENGAGE.',
    'Sizes are min / gzip -9 kB of the decoded bodies (kB = 1024 bytes); the server sends Brotli.',
    `Budget: at most ${kb(BUDGET)} kB gzip before the first input on every landing page, signed in or out`,
    `(static HTML with islands; a guarded page's content comes from the server with the session).`,
    '',
    '| page | visitor | JS before the first input | first input adds: ENGAGE (voice SDK, call room), or a press in the sign-in card (the app) |',
    '|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.page}\` | ${r.who} | ${cell(r.before)}${r.before.gzip > budgetOf(r.page) ? ' **over budget**' : ''} | ${r.click ? cell(r.click) : r.card ? `${cell(r.card)} (sign-in card)` : '—'} |`,
    ),
    ...(vapi
      ? [
          `| official \`@vapi-ai/web\` page | — | ${cell(vapi)} | (already loaded) |`,
          '',
          "The official page imports `@vapi-ai/web` eagerly, as its documentation shows, so Daily's call library",
          'arrives before the first input; the Engage pages load the SDK and the call library on the first ENGAGE.',
        ]
      : []),
    '',
    'Following a link of the navigation (signed out; median of 5, click to the next page’s heading):',
    '',
    '| move | scripts fetched | time |',
    '|---|---|---|',
    ...moves.map((m) => `| ${m.what} | ${cell(m.fetched)} | ${m.ms} ms |`),
    '',
    ...rows.flatMap((r) => [`Files of \`${r.page}\` ${r.who}: ${r.before.names.join(', ')}.`, '']),
    '### `<engage-widget>` on another site (before the first click)',
    '',
    `A page of another origin with only \`<script src=".../embed.js" async>\` and the element: ${cell(element)}`,
    `(budget ${kb(ELEMENT_BUDGET)} kB gzip${element.gzip > ELEMENT_BUDGET ? ', **over budget**' : ''}). Files: ${element.names.join(', ')}.`,
    'The first click adds the React view, the voice SDK and the call room from the Engage origin.',
    '',
    'Before the home page became islands (2026-11-25, same method): `/` fetched 296.6 / 95.1 kB in 4 scripts before the',
    'first input (React DOM, react-router, the shell and the page: the whole app hydrated), signed in or out;',
    'its first ENGAGE click added 25.9 kB gzip (signed out). Before the landing pages were prerendered: 197 kB gzip in 15 scripts.',
    'Before the guarded landing pages (`/ediscovery`, `/onboarding`) became islands too (2026-11-28, same method),',
    'they hydrated the whole app: 301.4 / 99.6 kB in 13 scripts signed in, 302.8 / 99.5 kB signed out. Now a',
    "signed-in user's page comes from the server (`GET /api/page-content`) and a visitor's sign-in card brings",
    "the app at the first press in it. Signed in, `/`'s first click also loads auth-js (the widget reads the session store).",
  ];
  publishSection(START, END, lines.join('\n'));
  if (process.argv.includes('--check') && over) {
    console.error(
      `A landing page downloads more than ${kb(BUDGET)} kB gzip of JavaScript before the first input.`,
    );
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  site.stop();
}
