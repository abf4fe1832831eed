import { createServer, type Server } from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { CSP, cspViolations, ENGAGE, LISTED, shopPage, UNLISTED } from './embed-helpers';

// <engage-widget> on other sites: a shop's page on another origin, with a strict CSP
// (scripts and connections: Engage's origin only) and CSS that tries to restyle everything.
// 127.0.0.2 is in the server's EMBED_ORIGINS (playwright.config.ts); 127.0.0.3 is not. The CSP is
// docs/embedding.md's (embed-helpers.ts). The element's attributes: embed-element.spec.ts.

const PORT = Number(process.env.E2E_EMBED_PORT);
const shopPageOf = (mode?: string) =>
  shopPage(`<engage-widget assistant="asst_index"${mode ? ` mode="${mode}"` : ''}></engage-widget>`);

let servers: Server[] = [];

test.beforeAll(async () => {
  const handler: Parameters<typeof createServer>[1] = (req, res) => {
    const mode = new URL(req.url ?? '/', LISTED).searchParams.get('mode') ?? undefined;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CSP });
    res.end(shopPageOf(mode === 'chat' ? 'chat' : undefined));
  };
  servers = await Promise.all(
    ['127.0.0.2', '127.0.0.3'].map(
      (host) =>
        new Promise<Server>((resolve, reject) => {
          const server = createServer(handler);
          server.once('error', reject);
          server.listen(PORT, host, () => resolve(server));
        }),
    ),
  );
});

test.afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

test.describe('<engage-widget> on another site', () => {
  test('renders ENGAGE in a shadow root the host’s CSS does not reach, axe-clean, and defines no global', async ({
    page,
  }) => {
    const violations = cspViolations(page);
    await page.addInitScript(() => {
      // The names a page starts with, to compare once the script has run (this one name is the test's).
      Object.defineProperty(window, '__namesBefore', {
        value: Object.getOwnPropertyNames(window),
        enumerable: false,
      });
    });
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(LISTED);
    const engage = page.getByRole('button', { name: 'ENGAGE' });
    await expect(engage).toBeVisible();
    await expect(page.getByRole('button', { name: 'Type instead' })).toBeVisible();
    expect(
      await page
        .locator('engage-widget')
        .evaluate((el) => el.shadowRoot?.contains(el.shadowRoot.querySelector('button'))),
    ).toBe(true);

    const style = await engage.evaluate((el) => {
      const s = getComputedStyle(el);
      return { color: s.color, background: s.backgroundColor, font: s.fontFamily, spacing: s.letterSpacing };
    });
    expect(style.color).toBe('rgb(2, 6, 23)');
    expect(style.background).toBe('rgb(255, 255, 255)');
    expect(style.font).not.toMatch(/^serif/);
    // The host page's own text is restyled as it asked: the rules did apply outside.
    expect(await page.locator('h1').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 0, 0)');
    // Fits a 320 px phone, at the bottom left, at full size.
    const box = await engage.boundingBox();
    expect(
      box && box.x >= 0 && box.x + box.width <= 320 && box.y + box.height <= 640 && box.height > 30,
    ).toBe(true);

    const added = await page.evaluate(() => {
      const before = new Set((window as unknown as { __namesBefore: string[] }).__namesBefore);
      return Object.getOwnPropertyNames(window).filter((n) => !before.has(n) && n !== '__namesBefore');
    });
    expect(added).toEqual([]);
    const axe = await new AxeBuilder({ page }).include('engage-widget').analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    expect(await page.evaluate(() => customElements.get('engage-widget') !== undefined)).toBe(true);
    expect(violations).toEqual([]);
  });

  test('an offline call starts, captions the first message, and ends', async ({ page }) => {
    test.setTimeout(90_000);
    const violations = cspViolations(page);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/provider/call/web')) calls.push(r.url());
    });
    await page.goto(LISTED);
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    const end = page.getByRole('button', { name: 'END' });
    await expect(end).toBeVisible({ timeout: 30_000 });
    expect(calls).toEqual([`${ENGAGE}/provider/call/web`]);
    const captions = page.getByRole('list', { name: 'Captions' });
    await expect(captions).toContainText('Hello! I can tell you about my background', { timeout: 30_000 });
    await expect(page.getByText(/^Call time/)).toBeAttached();
    await expect(page.getByRole('meter', { name: 'Microphone level' })).toBeVisible();
    await end.click();
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeEnabled();
    expect(violations).toEqual([]);
  });

  test('"Type instead" gets an answer', async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto(LISTED);
    await page.getByRole('button', { name: 'Type instead' }).click();
    const panel = page.getByRole('region', { name: /^Chat with the / });
    const box = panel.getByRole('textbox', { name: 'Type a message' });
    await expect(box).toBeFocused();
    await box.fill('Hello');
    await box.press('Enter');
    const items = panel.getByRole('list', { name: 'Conversation' }).getByRole('listitem');
    await expect(items).toHaveCount(2, { timeout: 30_000 });
    expect(((await items.last().textContent()) ?? '').trim()).not.toBe('');
    await expect(panel.getByRole('list', { name: 'Conversation' })).toHaveAttribute('aria-busy', 'false');
  });

  test('on another site too, an answer the assistant did not have offers an answer by mail, under its CSP', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const violations = cspViolations(page);
    await page.goto(LISTED);
    await page.getByRole('button', { name: 'Type instead' }).click();
    const panel = page.getByRole('region', { name: /^Chat with the / });
    const box = panel.getByRole('textbox', { name: 'Type a message' });
    await box.fill(`Which ${Date.now().toString(36)} owls run the night shift?`);
    await box.press('Enter');
    const offer = panel.getByRole('form', { name: /owner to answer you by mail/ });
    await expect(offer).toBeVisible({ timeout: 30_000 });
    await offer.getByRole('textbox', { name: 'Your email address' }).fill('shop-visitor@example.com');
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => r.url() === `${ENGAGE}/api/answer-requests` && r.request().method() === 'POST',
      ),
      offer.getByRole('button', { name: 'Mail me the answer' }).click(),
    ]);
    expect(response.status()).toBe(201);
    await expect(panel.getByText(/answer will be mailed to the address you gave/)).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('a site not in EMBED_ORIGINS gets no call and the reason on screen', async ({ page }) => {
    const provider: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/provider/')) provider.push(r.url());
    });
    await page.goto(UNLISTED);
    await page.getByRole('button', { name: 'ENGAGE' }).click();
    await expect(page.getByRole('alert')).toHaveText('This site is not allowed to use this assistant.');
    await expect(page.getByRole('button', { name: 'ENGAGE' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'END' })).toHaveCount(0);
    expect(provider).toEqual([]);
    // Straight to the provider with the page's origin: refused as well.
    const direct = await page.evaluate(async (engage) => {
      const res = await fetch(`${engage}/provider/call/web`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ assistantId: 'asst_index' }),
      }).catch(() => null);
      return res ? res.status : 'blocked';
    }, ENGAGE);
    expect(direct).toBe('blocked');
  });
});
