// Lighthouse on one page in Debian's Chromium, for scripts/bench-lighthouse.mjs. It lives here, beside
// the tools' own node_modules, so that only benchmarks install Lighthouse (ensure-bench-tools.mjs).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** The scores and timings of `url`, signed in when `session` ({key, value} for localStorage) is given. */
export async function audit(url, session) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: FLAGS,
  });
  try {
    if (session) {
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const page = await browser.newPage();
      await page.goto(new URL('/favicon.svg', url).href);
      await page.evaluate(({ key, value }) => window.localStorage.setItem(key, value), session);
      await page.close();
      await browser.disconnect();
    }
    const { lhr } = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      disableStorageReset: Boolean(session),
    });
    const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const ms = (id) => lhr.audits[id]?.numericValue ?? NaN;
    const failing = ['accessibility', 'best-practices'].flatMap((c) =>
      lhr.categories[c].auditRefs
        .filter((r) => r.weight > 0 && lhr.audits[r.id].score !== null && lhr.audits[r.id].score < 1)
        .map((r) => r.id),
    );
    return {
      perf: score('performance'),
      a11y: score('accessibility'),
      bp: score('best-practices'),
      fcp: ms('first-contentful-paint'),
      lcp: ms('largest-contentful-paint'),
      tbt: ms('total-blocking-time'),
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
      si: ms('speed-index'),
      lcpElement:
        lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.nodeLabel,
      failing,
      version: lhr.lighthouseVersion,
    };
  } finally {
    await chrome.kill();
  }
}
