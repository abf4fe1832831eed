import { expect, test, type Page } from '@playwright/test';

// Unknown and malformed URLs: the server answers 404 (or 400) with the site's not-found
// page, which the app hydrates as it is. No account is needed.

/** Errors the page reports: a failed hydration shows up here. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test.describe('the not-found page', () => {
  test('an unknown URL answers 404 and shows the not-found page, before and after the app loads', async ({
    page,
  }) => {
    const errors = pageErrors(page);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-type']).toContain('text/html');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('/no-such-page', { exact: true })).toBeVisible();
    await expect(page.locator('#root[data-hydrated]')).toBeAttached();
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    // 404s of the document itself are the point; anything else (a failed hydration) is not.
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a malformed URL answers 400 with the not-found page, not a server error', async ({ page }) => {
    const response = await page.goto('/%E0%A4%A');
    expect(response?.status()).toBe(400);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('/%E0%A4%A', { exact: true })).toBeVisible();
  });

  test('an unknown API path stays a JSON 404', async ({ request }) => {
    const response = await request.get('/api/no-such-route');
    expect(response.status()).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'request_error' });
  });
});
