import { expect, test } from '@playwright/test';
import { md, provider, row, run, signInAsAdmin } from './kb-import-helpers';

// Its own admin (see E2E_ADMINS in playwright.config.ts): a log-out revokes every session of an
// account, and kb-import.spec runs beside this one.
const ADMIN_EMAIL = 'kb-faults-admin@example.com';

test.describe('knowledge base bulk import in Chromium', () => {
  test('with 429s and 5xx injected on the way to the provider, no file is lost', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInAsAdmin(page, ADMIN_EMAIL);
    // Every fourth request is refused: 429 with Retry-After 1, then 503, in turn.
    let n = 0;
    let refused = 0;
    await page.route('**/api/provider/**', async (route) => {
      n++;
      if (n % 4 === 0) {
        refused++;
        await (refused % 2
          ? route.fulfill({ status: 429, headers: { 'Retry-After': '1' }, body: '{"message":"slow down"}' })
          : route.fulfill({ status: 503, body: '{"message":"unavailable"}' }));
        return;
      }
      await route.continue();
    });
    const names = Array.from({ length: 8 }, (_, i) => `faulty-${run}-${i}.md`);
    await page.getByRole('tab', { name: 'Files' }).click();
    await page
      .getByLabel('Choose files')
      .setInputFiles(names.map((name) => md(name, `# ${name}\n\nContent.\n`)));
    await page.getByRole('button', { name: 'Upload 8 file(s)' }).click();
    await expect(page.getByRole('button', { name: 'Cancel upload' })).toHaveCount(0, { timeout: 60_000 });
    // A file refused more often than the retries allow is kept, failed, with its original: retry it.
    for (let round = 0; round < 3; round++) {
      const retry = page.getByRole('button', { name: /^Retry failed/ });
      if ((await retry.count()) === 0) break;
      await retry.click();
      await expect(page.getByRole('button', { name: 'Cancel upload' })).toHaveCount(0, { timeout: 60_000 });
    }
    for (const name of names) await expect(row(page, name)).toContainText('done', { timeout: 60_000 });
    expect(refused).toBeGreaterThan(0);
    const files = await provider(request).get<{ name: string; status: string }[]>('/file?purpose=assistant');
    expect(
      files
        .filter((f) => f.name.startsWith(`faulty-${run}-`))
        .map((f) => f.name)
        .sort(),
    ).toEqual(names);
  });

  test('an upload cut off by a reload comes back failed and is retried from the kept original', async ({
    page,
    request,
  }) => {
    await signInAsAdmin(page, ADMIN_EMAIL);
    const name = `cut-${run}.md`;
    let reached!: () => void;
    const uploadStarted = new Promise<void>((resolve) => (reached = resolve));
    // The first upload never gets an answer: the page reloads while it is in flight.
    let held = false;
    await page.route('**/api/provider/file', async (route) => {
      if (route.request().method() === 'POST' && !held) {
        held = true;
        reached();
        return;
      }
      await route.continue();
    });
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByLabel('Choose files').setInputFiles([md(name, '# Cut off\n')]);
    await page.getByRole('button', { name: 'Upload 1 file(s)' }).click();
    await uploadStarted;
    // Leaving while a file is being sent asks first; here the user leaves anyway.
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      }),
    );
    await page.reload();
    expect(await asked).toBe('beforeunload');
    await page.getByRole('tab', { name: 'Files' }).click();
    await expect(row(page, name)).toContainText('failed');
    await expect(row(page, name)).toContainText('Upload interrupted by a page reload');
    await row(page, name)
      .getByRole('button', { name: `Retry ${name}` })
      .click();
    await expect(row(page, name)).toContainText('done', { timeout: 45_000 });
    const files = await provider(request).get<{ name: string }[]>('/file?purpose=assistant');
    expect(files.filter((f) => f.name === name)).toHaveLength(1);
  });
});
