import { expect, test, type Page } from '@playwright/test';
import { chartCard, signedIn } from './layout-helpers';

// Its own admin (see E2E_ADMINS in playwright.config.ts): no other spec signs in or out with it.
const ADMIN_EMAIL = 'layout-admin@example.com';

/** How far the brightest pixel behind the title and subtitle stands above their typical one (0-255). */
async function artBehindText(page: Page): Promise<number> {
  const box = await page.evaluate(() => {
    const title = document.querySelector('h1') as HTMLElement;
    const subtitle = title.nextElementSibling as HTMLElement;
    // The text itself out of the picture: only what lies behind it is measured.
    for (const el of [title, subtitle]) {
      el.style.color = 'transparent';
      el.style.textShadow = 'none';
      el.style.filter = 'none';
    }
    const a = title.getBoundingClientRect();
    const b = subtitle.getBoundingClientRect();
    const x = Math.min(a.x, b.x);
    return { x, y: a.y, width: Math.max(a.right, b.right) - x, height: b.bottom - a.y };
  });
  // Two frames first: the screenshot then shows the text taken out, not the frame before.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const png = await page.screenshot({ clip: box });
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(img, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    const light: number[] = [];
    for (let i = 0; i < data.length; i += 4) {
      light.push(0.2126 * (data[i] ?? 0) + 0.7152 * (data[i + 1] ?? 0) + 0.0722 * (data[i + 2] ?? 0));
    }
    light.sort((p, q) => p - q);
    return (light[light.length - 1] ?? 0) - (light[Math.floor(light.length / 2)] ?? 0);
  }, png.toString('base64'));
}

test.describe('background art', () => {
  for (const width of [1280, 375]) {
    test(`stays clear of the title and subtitle at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 760 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await signedIn(page, ADMIN_EMAIL);
      for (const path of ['/ediscovery', '/onboarding']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // A page shown after the session check gets its stylesheet with its chunk: measure once the
        // scrim is styled (it was measured unstyled once, a bright line read as art behind the text).
        await expect
          .poll(() => page.getByTestId('landing-scrim').evaluate((el) => getComputedStyle(el).position))
          .toBe('absolute');
        // A signed-in user's page is put in place by its script: measured once its art has decoded and
        // two frames have painted it, not in the frame the page arrived in.
        await page.evaluate(async () => {
          const art = document.querySelector<HTMLElement>('[data-testid="landing-background"]');
          const url = art && /url\("?(.*?)"?\)/.exec(getComputedStyle(art).backgroundImage)?.[1];
          if (url) {
            const image = new Image();
            image.src = url;
            await image.decode().catch(() => undefined);
          }
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        });
        // The art's lines are light on a dark picture: behind the text they are dimmed to a trace.
        expect(await artBehindText(page), `${path}: art behind the text`).toBeLessThan(24);
      }
    });
  }
});

test('the dashboard at desktop width keeps the stat cards their own height', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedIn(page, ADMIN_EMAIL);
  await page.goto('/admin');
  const chart = chartCard(page);
  await expect(chart).toBeVisible();
  const card = page.getByRole('group', { name: 'User statistics' }).locator('section').first();
  const cardBox = await card.boundingBox();
  const chartBox = await chart.boundingBox();
  expect(cardBox!.height).toBeLessThan(chartBox!.height * 0.75);
});
