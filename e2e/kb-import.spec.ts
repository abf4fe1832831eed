import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

// Its own admin (see E2E_ADMINS in playwright.config.ts): auth.spec logs admin@example.com out.
const ADMIN_EMAIL = 'kb-admin@example.com';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD as string;
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** The emulator's private key, as the server generated it in its data directory. */
function privateKey(): string {
  const secrets = JSON.parse(
    readFileSync(path.join(process.env.E2E_DATA_DIR as string, 'secrets.json'), 'utf8'),
  );
  return secrets.emulatorPrivateKey as string;
}

/** The provider's API (the emulator at /provider) with the private key: the test's own view. */
function provider(request: APIRequestContext) {
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

async function signInAsAdmin(page: Page) {
  await page.goto('/kb-import');
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(ADMIN_EMAIL);
  await form.getByLabel('Password').fill(ADMIN_PASSWORD);
  await form.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Vapi Knowledge Base Bulk Import Tool' }),
  ).toBeVisible();
}

async function chooseAssistant(page: Page, name: string) {
  await page.getByRole('tab', { name: 'Setup' }).click();
  await page.getByRole('combobox', { name: 'Assistant' }).click();
  await page.getByRole('option', { name }).click();
  await expect(page.getByRole('combobox', { name: 'Assistant' })).toHaveText(name);
}

const md = (name: string, text: string) => ({ name, mimeType: 'text/markdown', buffer: Buffer.from(text) });
const row = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Uploaded files' }).getByRole('listitem', { name });

test.describe('knowledge base bulk import in Chromium', () => {
  test('uploads, screens, retries, deletes and builds a knowledge base kept on the assistant', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const api = provider(request);
    // An assistant that already has a tool: creating the knowledge base must keep it.
    // A file the provider already holds: choosing it again is a duplicate.
    const dupContent = `# Already there ${run}\n`;
    const dup = await api.upload(`dup-${run}.md`, dupContent);
    const earlier = await api.post<{ id: string }>('/tool', {
      type: 'query',
      function: { name: `earlier-${run}` },
      knowledgeBases: [{ provider: 'google', name: 'earlier', description: 'earlier', fileIds: [dup.id] }],
    });
    const assistantName = `KB e2e ${run}`;
    const assistant = await api.post<{ id: string }>('/assistant', {
      name: assistantName,
      model: {
        provider: 'openai',
        model: 'gpt-4o',
        temperature: 0.7,
        messages: [{ role: 'system', content: 'Be brief.' }],
        toolIds: [earlier.id],
      },
    });

    await signInAsAdmin(page);
    await expect(page.getByLabel('Private API key')).toBeDisabled();
    await expect(page.getByText(/The server holds the Vapi private key/)).toBeVisible();
    await chooseAssistant(page, assistantName);
    expect(
      (await new AxeBuilder({ page }).include('main').analyze()).violations.map((v) => v.id),
      'axe on the Setup tab',
    ).toEqual([]);

    // The first upload of b.txt is answered 400 by the network: it is kept as failed, retriable.
    let refusedOnce = false;
    await page.route('**/api/provider/file', async (route) => {
      const body = route.request().postDataBuffer()?.toString('latin1') ?? '';
      if (!refusedOnce && route.request().method() === 'POST' && body.includes(`filename="b-${run}.txt"`)) {
        refusedOnce = true;
        await route.fulfill({ status: 400, contentType: 'text/plain', body: 'Invalid file' });
        return;
      }
      await route.continue();
    });

    await page.getByRole('tab', { name: 'Files' }).click();
    await page
      .getByLabel('Choose files')
      .setInputFiles([
        md(`a-${run}.md`, '# Alpha\n\nThe first document.\n'),
        { name: `b-${run}.txt`, mimeType: 'text/plain', buffer: Buffer.from('Bravo text.\n') },
        { name: `c-${run}.png`, mimeType: 'image/png', buffer: Buffer.from('not an image') },
        md(`dup-${run}.md`, dupContent),
        { name: `broken-${run}.json`, mimeType: 'application/json', buffer: Buffer.from('{"a":') },
      ]);
    await expect(page.getByRole('alert')).toHaveText(
      `2 file(s) skipped: c-${run}.png (unsupported format), dup-${run}.md (duplicate - already exists in Vapi)`,
    );
    await expect(page.getByRole('list', { name: 'Selected files' }).getByRole('listitem')).toHaveCount(3);
    await page.getByRole('button', { name: 'Upload 3 file(s)' }).click();

    await expect(page.getByRole('alert')).toHaveText('Upload failed: 400 Bad Request - Invalid file');
    await expect(row(page, `b-${run}.txt`)).toContainText('failed');
    await expect(row(page, `a-${run}.md`)).toContainText('done', { timeout: 45_000 });
    await expect(row(page, `broken-${run}.json`)).toContainText('failed', { timeout: 45_000 });
    // Why it failed: the provider's file says only 'failed'; the original shows the reason.
    await expect(row(page, `broken-${run}.json`)).toContainText(
      'Vapi could not process this file: not valid JSON',
    );

    await row(page, `b-${run}.txt`)
      .getByRole('button', { name: `Retry b-${run}.txt` })
      .click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully retried 1 of 1 files' }),
    ).toBeVisible();
    await expect(row(page, `b-${run}.txt`)).toContainText('done', { timeout: 45_000 });

    await row(page, `broken-${run}.json`)
      .getByRole('button', { name: `Delete broken-${run}.json` })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Delete 1 file?' })
      .getByRole('button', { name: 'Delete 1 file' })
      .click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully deleted 1 files from VAPI.' }),
    ).toBeVisible();
    await expect(row(page, `broken-${run}.json`)).toHaveCount(0);
    expect(
      (await new AxeBuilder({ page }).include('main').analyze()).violations.map((v) => v.id),
      'axe on the Files tab',
    ).toEqual([]);

    await page.getByRole('tab', { name: 'Import' }).click();
    const kbName = `E2E KB ${run}`;
    await page.getByLabel('Knowledge base name').fill(kbName);
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Knowledge base "${kbName}" created` }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Created knowledge bases (1)' })).toBeVisible();
    expect(
      (await new AxeBuilder({ page }).include('main').analyze()).violations.map((v) => v.id),
      'axe on the Import tab',
    ).toEqual([]);

    // The provider's own view: the tool holds exactly the done files, the assistant keeps its tools.
    const files = await api.get<{ id: string; name: string; status: string }[]>('/file?purpose=assistant');
    const mine = files.filter((f) => f.name.includes(run));
    const doneIds = mine.filter((f) => [`a-${run}.md`, `b-${run}.txt`].includes(f.name)).map((f) => f.id);
    expect(doneIds).toHaveLength(2);
    expect(mine.some((f) => f.name === `broken-${run}.json`)).toBe(false);
    const tools =
      await api.get<
        { id: string; function?: { name: string }; knowledgeBases: { name: string; fileIds: string[] }[] }[]
      >('/tool');
    const tool = tools.find((t) => t.knowledgeBases[0]?.name === kbName);
    expect(tool?.function?.name).toBe(`E2E-KB-${run}`);
    // The list holds the provider's files from the start (other specs' too): the tool takes every
    // done one, this test's among them, never the broken one.
    const used = tool?.knowledgeBases[0]?.fileIds ?? [];
    expect(used).toEqual(expect.arrayContaining(doneIds));
    const broken = files.find((f) => f.name === `broken-${run}.json`);
    if (broken) expect(used).not.toContain(broken.id);
    const doneAtProvider = new Set(files.filter((f) => f.status === 'done').map((f) => f.id));
    expect(used.every((id) => doneAtProvider.has(id))).toBe(true);
    const after = await api.get<{ model: unknown }>(`/assistant/${assistant.id}`);
    expect(after.model).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
      temperature: 0.7,
      messages: [{ role: 'system', content: 'Be brief.' }],
      toolIds: [earlier.id, tool?.id],
    });

    // Logs: timestamped lines.
    await page.getByRole('tab', { name: 'Logs' }).click();
    await expect(page.getByRole('list', { name: 'Activity log' }).getByRole('listitem').first()).toHaveText(
      /^\[\d{2}:\d{2}:\d{2}\] /,
    );
    expect(
      (await new AxeBuilder({ page }).include('main').analyze()).violations.map((v) => v.id),
      'axe on the Logs tab',
    ).toEqual([]);

    // Records survive a reload.
    await page.reload();
    await page.getByRole('tab', { name: 'Files' }).click();
    await expect(row(page, `a-${run}.md`)).toContainText('done');
    await page.getByRole('tab', { name: 'Import' }).click();
    await expect(page.getByRole('heading', { name: 'Created knowledge bases (1)' })).toBeVisible();
  });

  test('builds a v2 knowledge base instead of a query tool and attaches its tool, keeping the model', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const api = provider(request);
    const earlier = await api.post<{ id: string }>('/tool', {
      type: 'query',
      knowledgeBases: [
        {
          provider: 'google',
          name: 'earlier',
          description: 'earlier',
          fileIds: [(await api.upload(`v2-old-${run}.md`, 'old')).id],
        },
      ],
    });
    const assistantName = `KB v2 e2e ${run}`;
    const assistant = await api.post<{ id: string }>('/assistant', {
      name: assistantName,
      model: {
        provider: 'openai',
        model: 'gpt-4o',
        temperature: 0.3,
        messages: [{ role: 'system', content: 'Answer from the docs.' }],
        toolIds: [earlier.id],
      },
    });
    await signInAsAdmin(page);
    await chooseAssistant(page, assistantName);
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByLabel('Choose files').setInputFiles([md(`v2-${run}.md`, '# Vee two\n\nIndexed text.\n')]);
    await page.getByRole('button', { name: 'Upload 1 file(s)' }).click();
    await expect(row(page, `v2-${run}.md`)).toContainText('done', { timeout: 45_000 });

    await page.getByRole('tab', { name: 'Import' }).click();
    const choice = page.getByRole('group', { name: 'Create as' });
    await expect(choice.getByRole('radio', { name: /Query tool/ })).toBeChecked();
    await choice.getByRole('radio', { name: /v2 knowledge base/ }).check();
    const kbName = `V2 KB ${run}`;
    await page.getByLabel('Knowledge base name').fill(kbName);
    await page.getByRole('button', { name: 'Create v2 knowledge base' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Knowledge base "${kbName}" created` }),
    ).toBeVisible({ timeout: 60_000 });
    expect(
      (await new AxeBuilder({ page }).include('main').analyze()).violations.map((v) => v.id),
      'axe on the Import tab with the v2 choice',
    ).toEqual([]);

    const bases = await api.get<{ id: string; name: string }[]>('/v2/knowledge-base');
    const base = bases.find((b) => b.name === kbName);
    expect(base).toBeDefined();
    const full = await api.get<{ toolId: string | null; files: { fileId: string; status: string }[] }>(
      `/v2/knowledge-base/${base?.id}`,
    );
    // Every done file in the list (the provider's from the start, this test's among them) is indexed.
    const mine = (await api.get<{ id: string; name: string }[]>('/file?purpose=assistant')).find(
      (f) => f.name === `v2-${run}.md`,
    );
    expect(full.files.map((f) => f.fileId)).toContain(mine?.id);
    expect(full.files.every((f) => f.status === 'ready')).toBe(true);
    expect(full.toolId).toEqual(expect.any(String));
    const after = await api.get<{ model: unknown }>(`/assistant/${assistant.id}`);
    expect(after.model).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o',
      temperature: 0.3,
      messages: [{ role: 'system', content: 'Answer from the docs.' }],
      toolIds: [earlier.id, full.toolId],
    });
  });

  test('with 429s and 5xx injected on the way to the provider, no file is lost', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInAsAdmin(page);
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
    await signInAsAdmin(page);
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
