import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

// Its own admin (E2E_ADMINS in playwright.config.ts), so this spec runs alone or beside any other.
const ADMIN_EMAIL = 'import-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

const emulatorKey = () =>
  (
    JSON.parse(readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'secrets.json'), 'utf8')) as {
      emulatorPrivateKey: string;
    }
  ).emulatorPrivateKey;

/** Uploads a file straight to the provider (the emulator at /provider) with its private key. */
async function uploadToProvider(request: APIRequestContext, name: string, content: string) {
  await uploadToProviderId(request, name, content);
}

/** The emulator's API with its private key (the test's own view of the provider). */
function emulator(request: APIRequestContext) {
  const headers = { Authorization: `Bearer ${emulatorKey()}` };
  return {
    post: async (p: string, data: unknown) => {
      const res = await request.post(`/provider${p}`, { headers, data });
      expect(res.ok(), await res.text()).toBe(true);
      return (await res.json()) as { id: string };
    },
  };
}

async function uploadToProviderId(request: APIRequestContext, name: string, content: string) {
  const res = await request.post('/provider/file', {
    headers: { Authorization: `Bearer ${emulatorKey()}` },
    multipart: {
      file: { name, mimeType: 'text/markdown', buffer: Buffer.from(content) },
      purpose: 'assistant',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { id: string }).id;
}

async function signIn(page: Page) {
  await page.goto('/kb-import');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(ADMIN_EMAIL);
  await form.getByLabel('Password').fill(ADMIN_PASSWORD);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Vapi Knowledge Base Bulk Import Tool' }),
  ).toBeVisible();
}

const file = (name: string, text: string, mimeType = 'text/plain') => ({
  name,
  mimeType,
  buffer: Buffer.from(text),
});
const row = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Uploaded files' }).getByRole('listitem', { name });
const loaded = (page: Page) => page.getByRole('status').filter({ hasText: /^Loaded/ });

test.describe('the import tool says what happened', () => {
  test('reasons, refusals, retries, loads and deletes are reported as they are', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await uploadToProvider(request, `held-${run}.md`, `# Already at the provider ${run}\n`);
    await signIn(page);
    await page.getByRole('tab', { name: 'Files' }).click();

    // What the provider holds is listed on opening; loading it again says how many, and this run's
    // file is not new nor listed twice. (Specs running beside this one share the provider, so files
    // they uploaded since the opening may count as new.)
    await expect(row(page, `held-${run}.md`)).toBeVisible();
    await page.getByRole('button', { name: 'Load existing files' }).click();
    await expect(loaded(page)).toHaveText(/^Loaded [1-9]\d* files? from the provider \(\d+ new\)\.$/);
    await expect(row(page, `held-${run}.md`)).toHaveCount(1);

    // An empty file is refused when chosen, with the reason in view.
    const json = `data-${run}.json`;
    await page
      .getByLabel('Choose files')
      .setInputFiles([file(`empty-${run}.md`, ''), file(json, '{"answer": 42,', 'application/json')]);
    await expect(page.getByRole('alert')).toHaveText(`1 file(s) skipped: empty-${run}.md (empty file)`);
    await page.getByRole('button', { name: 'Upload 1 file(s)' }).click();
    await expect(row(page, json)).toContainText('failed', { timeout: 45_000 });
    await expect(row(page, json)).toContainText('Vapi could not process this file: not valid JSON');
    // Loading the provider's files again, or reopening the page, keeps the reason.
    await page.getByRole('button', { name: 'Load existing files' }).click();
    // Other specs upload to the same provider meanwhile: theirs may be new, this page's never.
    await expect(loaded(page)).toHaveText(/^Loaded \d+ files? from the provider \(\d+ new\)\.$/);
    await expect(row(page, json)).toContainText('Vapi could not process this file: not valid JSON');
    await page.reload();
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByRole('button', { name: 'Load existing files' }).click();
    // Other specs upload to the same provider meanwhile: theirs may be new, this page's never.
    await expect(loaded(page)).toHaveText(/^Loaded \d+ files? from the provider \(\d+ new\)\.$/);
    await expect(row(page, json)).toContainText('Vapi could not process this file: not valid JSON');
    // The same broken content is not sent again, so it cannot be called a retried success.
    await expect(row(page, json).getByRole('button', { name: `Retry ${json}` })).toBeDisabled();
    await page.getByLabel('Choose files').setInputFiles([file(json, '{"answer": 42,', 'application/json')]);
    await expect(page.getByRole('alert')).toHaveText(`1 file(s) skipped: ${json} (not valid JSON)`);

    // Chosen again once fixed, the failed file is retried (not called a duplicate) and processed.
    await page.getByLabel('Choose files').setInputFiles([file(json, '{"answer": 42}', 'application/json')]);
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully retried 1 of 1 files' }),
    ).toBeVisible();
    await expect(row(page, json)).toContainText('done', { timeout: 45_000 });
    await expect(row(page, json)).toHaveCount(1);

    // Deleting asks first, naming how many; Escape keeps the file.
    const del = row(page, json).getByRole('button', { name: `Delete ${json}` });
    await del.click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete 1 file?' });
    await expect(dialog).toContainText(`"${json}" will be deleted from Vapi.`);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    expect(
      (await new AxeBuilder({ page }).include('[role="alertdialog"]').analyze()).violations.map((v) => v.id),
      'axe on the delete confirmation',
    ).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(del).toBeFocused();
    await expect(row(page, json)).toHaveCount(1);
    await del.click();
    await dialog.getByRole('button', { name: 'Delete 1 file' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully deleted 1 files from VAPI.' }),
    ).toBeVisible();
    await expect(row(page, json)).toHaveCount(0);

    // The server holds the key: creating asks only for the assistant.
    await page.getByRole('tab', { name: 'Import' }).click();
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please select an assistant');
  });

  test('reopened, it restores the assistant and shows what the provider already holds', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const held = `reopen-${run}.md`;
    const heldId = await uploadToProviderId(request, held, `# Held ${run}\n`);
    const api = emulator(request);
    const tool = `reopen-tool-${run}`;
    await api.post('/tool', {
      type: 'query',
      function: { name: tool },
      knowledgeBases: [{ provider: 'google', name: tool, description: 'kept', fileIds: [heldId] }],
    });
    const base = `reopen-kb-${run}`;
    await api.post('/v2/knowledge-base', { name: base, description: 'kept' });
    await signIn(page);
    await page.getByRole('combobox', { name: 'Assistant' }).click();
    const option = page.getByRole('option').first();
    const assistant = (await option.textContent()) ?? '';
    await option.click();
    await expect(page.getByRole('combobox', { name: 'Assistant' })).toHaveText(assistant);
    // Reloaded at once, inside the half second the choice waits to be saved.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Assistant' })).toHaveText(assistant);
    // The provider's files are there without asking: this browser never uploaded this one.
    await page.getByRole('tab', { name: 'Files' }).click();
    await expect(row(page, held)).toBeVisible();
    await expect(page.getByRole('heading', { name: /^Uploaded files \([1-9]\d*\)$/ })).toBeVisible();
    // Deleting a file a query tool uses says so, naming the tool; cancelled, nothing is deleted.
    await row(page, held)
      .getByRole('button', { name: `Delete ${held}` })
      .click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete 1 file?' });
    await expect(dialog).toContainText(`${held} is used by ${tool}`);
    await page.keyboard.press('Escape');
    await expect(row(page, held)).toHaveCount(1);
    // The tools and knowledge bases already at the provider are listed, not only this browser's.
    await page.getByRole('tab', { name: 'Import' }).click();
    const existing = page.getByRole('region', { name: /^Knowledge bases and query tools/ });
    await expect(existing.getByRole('listitem').filter({ hasText: tool })).toBeVisible();
    await expect(existing.getByRole('listitem').filter({ hasText: base })).toBeVisible();
  });

  test('states the size limit and refuses a file over it when chosen; one scroll on a phone', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page);
    await page.getByRole('tab', { name: 'Files' }).click();
    await expect(page.getByLabel('Choose files')).toHaveAccessibleDescription(
      /Up to 10 MB each\. Supported: \.txt/,
    );
    const big = `big-${run}.txt`;
    await page.getByLabel('Choose files').setInputFiles([file(big, 'x'.repeat(10 * 1024 * 1024 + 1))]);
    await expect(page.getByRole('alert')).toHaveText(`1 file(s) skipped: ${big} (larger than 10 MB)`);
    await expect(page.getByRole('list', { name: 'Selected files' })).toHaveCount(0);
    await expect(row(page, big)).toHaveCount(0);
    // The uploaded list scrolls with the page, not inside a box of its own.
    await expect(page.getByRole('list', { name: 'Uploaded files' })).toHaveCSS('overflow-y', 'visible');
  });

  test('leaving during an upload asks first; staying keeps the upload going', async ({ page }) => {
    await signIn(page);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const started = new Promise<void>((resolve) => (reached = resolve));
    await page.route('**/api/provider/file', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      reached();
      await released;
      await route.continue();
    });
    const name = `slow-${run}.md`;
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByLabel('Choose files').setInputFiles([file(name, '# Slow\n', 'text/markdown')]);
    await page.getByRole('button', { name: 'Upload 1 file(s)' }).click();
    await started;
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    // The user is asked, and stays.
    void page.reload().catch(() => undefined);
    expect(await asked).toBe('beforeunload');
    release();
    await expect(row(page, name)).toContainText(/processing|done/);
  });

  test('on a 320 px phone, names keep their extension and defaults read as placeholders', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await signIn(page);
    await page.getByRole('tab', { name: 'Files' }).click();
    const long = `quarterly-report-for-the-board-of-directors-${run}-final.pdf`;
    await page.getByLabel('Choose files').setInputFiles([file(long, '%PDF-1.4\n', 'application/pdf')]);
    const list = page.getByRole('list', { name: 'Selected files' });
    const name = list.getByTitle(long);
    await expect(name).toBeVisible();
    // The visible copy ends with the extension, in view; the middle is what gets cut.
    const shown = name.locator('[aria-hidden]');
    await expect(shown.locator('span').last()).toHaveText('al.pdf');
    const tail = await shown.locator('span').last().boundingBox();
    const box = await list.boundingBox();
    expect(tail && box && tail.x + tail.width <= box.x + box.width).toBe(true);
    const cut = await shown
      .locator('span')
      .first()
      .evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(cut).toBe(true);
    // Nothing on the Files tab is wider than the phone: no sideways scrolling inside the card.
    const panel = page.getByRole('tabpanel', { name: 'Files' });
    expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // In the uploaded list too, where status and buttons share the row.
    await page.getByRole('button', { name: 'Upload 1 file(s)' }).click();
    const uploaded = row(page, long);
    await expect(uploaded).toBeVisible();
    const ext = uploaded.getByTitle(long).locator('[aria-hidden] span').last();
    await expect(ext).toHaveText('al.pdf');
    // The row re-renders as the upload's status changes (a box measured mid-render is null): measure again until stable.
    await expect(async () => {
      const extBox = await ext.boundingBox();
      const rowBox = await uploaded.boundingBox();
      expect(extBox && rowBox && extBox.x + extBox.width <= rowBox.x + rowBox.width).toBe(true);
    }).toPass({ timeout: 10_000 });
    await expect(uploaded.getByRole('button', { name: `Delete ${long}` })).toBeVisible();
    expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    await page.getByRole('tab', { name: 'Import' }).click();
    await expect(page.getByLabel('Knowledge base name')).toHaveValue('');
    await expect(page.getByLabel('Knowledge base name')).toHaveAttribute(
      'placeholder',
      'knowledge-base (default)',
    );
    await expect(page.getByLabel('Description')).toHaveValue('');
    await expect(page.getByLabel('Description')).toHaveAttribute(
      'placeholder',
      'Custom knowledge base (default)',
    );
  });
});
