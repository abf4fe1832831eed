import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import {
  chooseAssistant,
  md,
  provider,
  recordStatuses,
  row,
  run,
  signInAsAdmin,
  statusShown,
} from './kb-import-helpers';

// Its own admin (see E2E_ADMINS in playwright.config.ts): auth.spec logs admin@example.com out.
const ADMIN_EMAIL = 'kb-admin@example.com';

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

    await signInAsAdmin(page, ADMIN_EMAIL);
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

    await recordStatuses(page);
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
    await statusShown(page, 'Successfully retried 1 of 1 files');
    await expect(row(page, `b-${run}.txt`)).toContainText('done', { timeout: 45_000 });

    await row(page, `broken-${run}.json`)
      .getByRole('button', { name: `Delete broken-${run}.json` })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Delete 1 file?' })
      .getByRole('button', { name: 'Delete 1 file' })
      .click();
    await statusShown(page, 'Successfully deleted 1 files from VAPI.');
    await expect(row(page, `broken-${run}.json`)).toHaveCount(0);
    expect(
      (await new AxeBuilder({ page }).include('main').analyze()).violations.map((v) => v.id),
      'axe on the Files tab',
    ).toEqual([]);

    await page.getByRole('tab', { name: 'Import' }).click();
    const kbName = `E2E KB ${run}`;
    await page.getByLabel('Knowledge base name').fill(kbName);
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await statusShown(page, `Knowledge base "${kbName}" created`);
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
    await signInAsAdmin(page, ADMIN_EMAIL);
    await chooseAssistant(page, assistantName);
    await recordStatuses(page);
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
    await statusShown(page, `Knowledge base "${kbName}" created`, 60_000);
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
});
