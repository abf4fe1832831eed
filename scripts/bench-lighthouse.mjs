// npm run bench:lighthouse — Lighthouse (mobile preset: simulated slow 4G, 4x CPU slowdown) on each
// landing page of the built site served by the real server, as a signed-out visitor and as a
// signed-in user (a session in localStorage, as auth-js stores it, kept by disableStorageReset).
// Drives Debian's Chromium (CHROME_PATH, default /usr/bin/chromium); never downloads a browser.
// `--write` replaces the Lighthouse section of docs/benchmarks.md; `--no-build` uses apps/site/dist;
// `--runs=N` takes the median performance run of N (default 1).
import { machine, publishSection } from '@engage/bench-doc';
import { PAGES, buildSite, startServer, storedSession } from './bench-site.mjs';
// Installed on demand into scripts/bench-tools (npm run bench:lighthouse runs ensure-bench-tools first).
const { audit } = await import('./bench-tools/lighthouse-audit.mjs');

const START = '<!-- bench:lighthouse:start -->';
const END = '<!-- bench:lighthouse:end -->';
const runs = Number(/^--runs=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 1);

if (!process.argv.includes('--no-build')) buildSite();
const site = await startServer();
try {
  const session = await storedSession(site.base);
  const rows = [];
  for (const who of ['signed out', 'signed in'])
    for (const p of PAGES) {
      const results = [];
      for (let i = 0; i < runs; i++)
        results.push(await audit(site.base + p, who === 'signed in' ? session : null));
      results.sort((a, b) => a.perf - b.perf || b.lcp - a.lcp);
      const median = results[Math.floor(results.length / 2)];
      rows.push({ page: p, who, ...median });
      console.error(
        `${p} ${who}: perf ${median.perf}, LCP ${Math.round(median.lcp)} ms, TBT ${Math.round(median.tbt)} ms`,
      );
    }
  const s = (n) => `${(n / 1000).toFixed(2)} s`;
  const lines = [
    '## Landing pages: Lighthouse mobile (`npm run bench:lighthouse`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()} with Lighthouse ${rows[0]?.version} (mobile preset:`,
    "simulated slow 4G, 4x CPU slowdown) driving Debian's Chromium headless, on the built site served by the",
    `real server (Brotli). ${runs === 1 ? 'One run per row.' : `Median of ${runs} runs per row.`} Goal: performance ≥ 98, LCP ≤ 1.5 s, TBT ≤ 50 ms,`,
    'accessibility and best practices 100.',
    '',
    '| page | visitor | performance | FCP | LCP | TBT | CLS | speed index | accessibility | best practices | LCP element |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.page}\` | ${r.who} | ${r.perf} | ${s(r.fcp)} | ${s(r.lcp)} | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${s(r.si)} | ${r.a11y} | ${r.bp} | ${(r.lcpElement ?? '—').replace(/\|/g, '\\|')} |`,
    ),
    ...rows
      .filter((r) => r.failing.length > 0)
      .map((r) => `\nFailing audits on \`${r.page}\` ${r.who}: ${r.failing.join(', ')}.`),
    '',
    'Before the landing-page work (the figures reported then, Lighthouse 13 mobile): `/` performance 93, LCP 2.9 s;',
    '`/ediscovery` signed out 92, LCP 3.2 s; accessibility 100.',
  ];
  publishSection(START, END, lines.join('\n'));
} finally {
  site.stop();
}
