import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
test('debug', async ({ page }) => {
  await page.goto('/kb-import');
  await expect(page.locator('#root[data-hydrated]')).toBeAttached();
  await page.getByRole('tab', { name: 'Sign In' }).focus();
  await page.keyboard.press('ArrowRight');
  console.log(
    await page.locator('[role=tabpanel]').evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 200))),
  );
  console.log(await page.locator('[role=tab]').evaluateAll((els) => els.map((e) => e.id)));
  const axe = await new AxeBuilder({ page }).analyze();
  console.log(
    JSON.stringify(
      axe.violations.map((v) => v.nodes.map((n) => [n.html, n.failureSummary])),
      null,
      1,
    ),
  );
});
