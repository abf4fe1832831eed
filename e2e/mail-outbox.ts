// The e2e server's mail outbox needs its token, as an operator's does: the server generated it into
// its data directory (E2E_DATA_DIR, playwright.config.ts) on start, as `npm run keys` would show it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

/** The outbox token of the server under test. */
export function outboxToken(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the specs through playwright.config.ts.');
  const secrets = JSON.parse(readFileSync(path.join(dir, 'secrets.json'), 'utf8')) as Record<string, string>;
  const token = secrets.mailOutboxToken;
  if (!token) throw new Error('The server has not generated its outbox token.');
  return token;
}

/** Opens /_mail with the token (the server sets its cookie and redirects to /_mail). */
export async function openOutbox(page: Page): Promise<void> {
  await page.goto(`/_mail?token=${encodeURIComponent(outboxToken())}`);
}

/** Opens the newest mail of a kind to an address in the /_mail outbox; returns its page's text. */
export async function openMail(page: Page, to: string, subject: string) {
  const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject }).first();
  // A mail may land a moment after the answer that sent it (an email change sends two): the outbox
  // is opened again until it lists it, as its reader would reload it.
  await expect(async () => {
    await openOutbox(page);
    await expect(row).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await row.getByRole('link', { name: subject }).click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  return page.locator('body').innerText();
}
