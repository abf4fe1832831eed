import { expect, test } from '@playwright/test';
test('debug focus', async ({ page }) => {
  await page.goto('/');
  const engage = page.getByRole('button', { name: 'ENGAGE' });
  await expect(page.locator('#root[data-hydrated]')).toBeAttached();
  await engage.focus();
  const where = () =>
    page.evaluate(() => {
      const h = document.querySelector('engage-widget');
      const a = h?.shadowRoot?.activeElement;
      return `${document.activeElement?.tagName} / ${a?.tagName}:${a?.textContent} end=${[...(h?.shadowRoot?.querySelectorAll('button') ?? [])].map((b) => b.textContent).join('|')}`;
    });
  console.log('A', await where());
  await page.keyboard.press('Enter');
  for (let i = 0; i < 200; i++) {
    console.log('B', i, await where());
    await page.waitForTimeout(150);
  }
});
