// Shared helpers of the knowledge base import specs (kb-import*.spec.ts): the provider's own view
// through the emulator's private key, the admin's sign-in, and the import tool's controls.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
/** Marks this run's files and assistants apart from other runs' on the one server. */
export const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** The emulator's private key, as the server generated it in its data directory. */
function privateKey(): string {
  const secrets = JSON.parse(
    readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'secrets.json'), 'utf8'),
  );
  return secrets.emulatorPrivateKey as string;
}

/** The provider's API (the emulator at /provider) with the private key: the test's own view. */ export function provider(
  request: APIRequestContext,
) {
  const headers = { Authorization: `Bearer ${privateKey()}` };
  const json = async <T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> => {
    expect(res.ok(), `${res.url()} ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  return {
    get: async <T>(p: string): Promise<T> => json<T>(await request.get(`/provider${p}`, { headers })),
    post: async <T>(p: string, data: unknown): Promise<T> =>
      json<T>(await request.post(`/provider${p}`, { headers, data })),
    upload: async (name: string, content: string) =>
      json<{ id: string }>(
        await request.post('/provider/file', {
          headers,
          // The import tool's purpose (docs/decisions.md): its listings show only such files.
          multipart: {
            file: { name, mimeType: 'text/markdown', buffer: Buffer.from(content) },
            purpose: 'assistant',
          },
        }),
      ),
  };
}

/** Signs in at /kb-import as `email`: each spec file has its own admin (E2E_ADMINS in playwright.config.ts). */
export async function signInAsAdmin(page: Page, email: string) {
  await page.goto('/kb-import');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(ADMIN_PASSWORD);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Vapi Knowledge Base Bulk Import Tool' }),
  ).toBeVisible();
}

export async function chooseAssistant(page: Page, name: string) {
  await page.getByRole('tab', { name: 'Setup' }).click();
  await page.getByRole('combobox', { name: 'Assistant' }).click();
  await page.getByRole('option', { name }).click();
  await expect(page.getByRole('combobox', { name: 'Assistant' })).toHaveText(name);
}

export const md = (name: string, text: string) => ({
  name,
  mimeType: 'text/markdown',
  buffer: Buffer.from(text),
});
export const row = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Uploaded files' }).getByRole('listitem', { name });

declare global {
  interface Window {
    /** Every text a status region (role="status") has shown since recordStatuses, in order. */
    __statusLog?: string[];
  }
}

/**
 * Records every text the page's status regions show from now on. A success message is replaced by
 * the next one, and under load it can be gone before a locator looks: expect on the log instead
 * (statusShown), which keeps what the user was told however briefly.
 */
export async function recordStatuses(page: Page) {
  await page.evaluate(() => {
    const log: string[] = (window.__statusLog = []);
    const note = () => {
      for (const el of document.querySelectorAll('[role="status"]')) {
        const text = el.textContent?.trim() ?? '';
        if (text && !log.includes(text)) log.push(text);
      }
    };
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['role'],
    });
    note();
  });
}

/** Waits until a status region has shown text containing `text` (see recordStatuses). */
export async function statusShown(page: Page, text: string, timeout?: number) {
  await expect
    .poll(() => page.evaluate(() => window.__statusLog ?? []), {
      message: `a status saying "${text}"`,
      ...(timeout ? { timeout } : {}),
    })
    .toContainEqual(expect.stringContaining(text));
}
