// Shared helpers of the layout specs (phone-layout.spec.ts, layout-art-and-desktop.spec.ts): a page
// opened signed in, and what a layout must keep (no sideways scroll, inside the width, uncovered).
import { expect, type Locator, type Page } from '@playwright/test';

const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;

export const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** The dashboard's card of the sign-ups chart. */
export const chartCard = (page: Page) =>
  page.locator('section').filter({ has: page.getByRole('img', { name: /^Sign-ups per day/ }) });

/**
 * The admin's session as auth-js stores it, so a page opens signed in (prerender.spec does the same).
 * `email` is the spec file's own admin (E2E_ADMINS in playwright.config.ts).
 */
export async function signedIn(page: Page, email: string): Promise<string> {
  const config = await (await page.request.get('/config.json')).json();
  const res = await page.request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: config.auth.anonKey },
    data: { email, password: ADMIN_PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(200);
  const session = await res.json();
  session.expires_at ??= Math.floor(Date.now() / 1000) + session.expires_in;
  await page.addInitScript(
    ([key, value]) => window.localStorage.setItem(key as string, value as string),
    ['sb-127-auth-token', JSON.stringify(session)],
  );
  return session.access_token as string;
}

/** The page is no wider than the window: nothing scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, width } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scrollWidth, `${what} is ${scrollWidth}px wide in a ${width}px window`).toBeLessThanOrEqual(width);
}

/** The element lies inside the window's width. */
export async function expectInsideWidth(page: Page, element: Locator, what: string) {
  const width = page.viewportSize()?.width ?? 0;
  // Retried: a list that refetches (another spec's users coming and going) may re-render the row meanwhile.
  await expect(async () => {
    const box = await element.boundingBox({ timeout: 2_000 });
    expect(box, what).not.toBeNull();
    expect(box!.x, `${what} starts at ${box!.x}`).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, `${what} ends at ${box!.x + box!.width}`).toBeLessThanOrEqual(width);
  }).toPass();
}

/** Nothing is drawn over the element: its centre and both ends are its own when hit-tested. */
export async function expectUncovered(element: Locator, what: string) {
  // Retried: a list that refetches (the search settling) may replace the row meanwhile.
  await expect(async () => {
    await element.scrollIntoViewIfNeeded({ timeout: 2_000 });
    const covered = await element.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const y = r.top + r.height / 2;
      return [r.left + 2, r.left + r.width / 2, r.right - 2]
        .map((x) => document.elementFromPoint(x, y))
        .filter((hit) => !hit || !el.contains(hit))
        .map((hit) => hit?.outerHTML.slice(0, 80) ?? 'outside the window');
    });
    expect(covered, `${what} is covered`).toEqual([]);
  }).toPass();
}

export const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The landing page's title: read by its real word, shown letter-spaced. */
export async function expectTitle(page: Page, word: string) {
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveAccessibleName(word);
  expect(await heading.innerText()).toBe([...word.replace(/\s+/g, '')].join(' '));
}

/** An input's placeholder is read whole: the text's width fits the room inside its padding. */
export async function expectWholePlaceholder(input: Locator) {
  const room = await input.evaluate((el) => {
    const field = el as HTMLInputElement;
    const style = getComputedStyle(field);
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    context.font = style.font;
    const free = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { free, needed: context.measureText(field.placeholder).width };
  });
  expect(room.needed, 'the placeholder is cut').toBeLessThanOrEqual(room.free);
}
