import { describe, expect, it, vi } from 'vitest';
import { advanceUntil, file, setup, withFakeClock } from '../testing/controller-harness';
import { memoryStorage, storageKeys } from './storage';

withFakeClock();

describe('loading from the provider', () => {
  it('needs a key to load files', async () => {
    const { controller, state } = setup({ key: false });
    await controller.loadExisting();
    expect(state().alert?.message).toBe('API key required to load existing files');
    await controller.refresh();
    expect(state().alert?.message).toBe('API key required to load files');
  });

  it('says why loading or refreshing failed, with the status, and blames the key for a 401', async () => {
    const { controller, provider, state } = setup();
    provider.failNext('list', { status: 400 });
    await controller.loadExisting();
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'Failed to load files: 400 Bad Request',
    });
    provider.failNext('list', { status: 401 });
    await controller.loadExisting();
    expect(state().alert?.message).toBe(
      "Invalid API key. Make sure you're using your VAPI private key, not the public key.",
    );
    provider.failNext('list', { status: 400 });
    await controller.refresh();
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'Failed to load files: 400 Bad Request',
    });
    provider.failNext('list', { status: 401 });
    await controller.refresh();
    expect(state().alert?.message).toBe(
      "Invalid API key. Make sure you're using your VAPI private key, not the public key.",
    );
  });

  it("adds the provider's existing files once and follows those still processing", async () => {
    const { controller, provider, state } = setup();
    await provider.api.uploadFile(file('old.md'), 'old.md');
    await vi.advanceTimersByTimeAsync(2_000);
    await provider.api.uploadFile(file('new.md'), 'new.md');
    await controller.loadExisting();
    expect(state().uploaded.map((f) => [f.name, f.status])).toEqual([
      ['old.md', 'done'],
      ['new.md', 'processing'],
    ]);
    expect(state().alert).toEqual({
      variant: 'default',
      message: 'Loaded 2 files from the provider (2 new).',
    });
    await provider.api.uploadFile(file('third.md'), 'third.md');
    await controller.loadExisting();
    expect(state().uploaded).toHaveLength(3);
    // Not 'Loaded 1 existing file(s)' nor 'Loaded 0': the provider holds 3, one of them new here.
    expect(state().alert?.message).toBe('Loaded 3 files from the provider (1 new).');
    await controller.loadExisting();
    expect(state().alert?.message).toBe('Loaded 3 files from the provider (0 new).');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(state().uploaded[1]?.status).toBe('done');
  });

  it('refreshes statuses from the provider list', async () => {
    const { controller, provider, state } = setup();
    await controller.addFiles([file('a.md')]);
    await controller.upload();
    provider.failNext('get', { status: 500 }, { status: 500 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(state().uploaded[0]?.status).toBe('processing');
    await controller.refresh();
    expect(state().uploaded[0]?.status).toBe('done');
    expect(state().logs.at(-1)?.message).toBe('Refreshed 1 file(s) from the provider');
  });
});

describe('deleting', () => {
  async function withUploaded(n: number) {
    const ctx = setup();
    await ctx.controller.addFiles(Array.from({ length: n }, (_, i) => file(`f${i}.md`)));
    const run = ctx.controller.upload();
    await advanceUntil(() => !ctx.state().upload.running);
    await run;
    return ctx;
  }

  it('deletes checked files 500 ms apart and waits 2 s after a 429', async () => {
    const { controller, provider, state } = await withUploaded(3);
    controller.setAllChecked(true);
    expect(state().checked).toHaveLength(3);
    provider.failNext('delete', { status: 429 });
    provider.calls.length = 0;
    const run = controller.deleteChecked();
    await vi.advanceTimersByTimeAsync(0);
    expect(provider.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(provider.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(provider.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(499);
    expect(provider.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(provider.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(500);
    await run;
    expect(provider.files.size).toBe(0);
    expect(state().uploaded).toEqual([]);
    expect(state().alert).toEqual({ variant: 'default', message: 'Successfully deleted 3 files from VAPI.' });
  });

  it('reports partial failures and removes failed- records without a request', async () => {
    const { controller, provider, state } = await withUploaded(2);
    provider.failNext('upload', { status: 400 });
    await controller.addFiles([file('bad.md')]);
    await controller.upload();
    provider.failNext('delete', { status: 500 });
    provider.calls.length = 0;
    controller.setAllChecked(true);
    const run = controller.deleteChecked();
    await vi.advanceTimersByTimeAsync(2_000);
    await run;
    expect(provider.calls.filter((c) => c.startsWith('DELETE'))).toHaveLength(2);
    // One deleted on the provider, one refused there, and one that never reached it: each said as it is.
    expect(state().alert).toEqual({
      variant: 'destructive',
      message:
        'Deleted 1 files. Failed to delete 1 files from VAPI. Removed 1 file from the list that never reached VAPI.',
    });
    expect(state().uploaded).toHaveLength(1);
  });

  it('says records that never reached the provider were removed from the list, not deleted from it', async () => {
    const storage = memoryStorage({
      [storageKeys.uploadedFiles]: JSON.stringify(
        ['a', 'b'].map((n) => ({
          id: `failed-${n}`,
          name: `${n}.md`,
          bytes: 1,
          mimetype: '',
          status: 'failed',
        })),
      ),
    });
    const { controller, provider, state } = setup({ storage });
    await controller.delete(['failed-a', 'failed-b']);
    expect(provider.calls).toEqual([]);
    expect(state().uploaded).toEqual([]);
    expect(state().alert).toEqual({
      variant: 'default',
      message: 'Removed 2 files from the list that never reached VAPI.',
    });
  });

  it('a single failed delete says its status', async () => {
    const { controller, provider, state } = await withUploaded(1);
    provider.failNext('delete', { status: 503 });
    await controller.delete([state().uploaded[0]?.id ?? '']);
    expect(state().alert?.message).toBe('Failed to delete file from VAPI: 503');
  });
});

describe('creating the knowledge base', () => {
  async function withDone() {
    const ctx = setup();
    await ctx.controller.addFiles([file('a.md'), file('b.md'), file('broken.json', '{')]);
    void ctx.controller.upload();
    await advanceUntil(() => ctx.state().uploaded.every((f) => f.status === 'done' || f.status === 'failed'));
    return ctx;
  }

  it('needs a key, an assistant and done files', async () => {
    const noKey = setup({ key: false });
    await noKey.controller.createKnowledgeBase({ name: '', description: '', assistantId: 'asst-1' });
    expect(noKey.state().alert?.message).toBe('Please provide API key');
    const { controller, state } = setup();
    await controller.createKnowledgeBase({ name: '', description: '', assistantId: '' });
    // The key is there (typed, or held by the server): only the assistant is asked for.
    expect(state().alert?.message).toBe('Please select an assistant');
    await noKey.controller.createKnowledgeBase({ name: '', description: '', assistantId: '' });
    expect(noKey.state().alert?.message).toBe('Please provide API key and select an assistant');
    await controller.createKnowledgeBase({ name: '', description: '', assistantId: 'asst-1' });
    expect(state().alert?.message).toBe('No files selected for knowledge base');
  });

  it('creates the tool from done files with defaults and keeps the assistant model and earlier tools', async () => {
    const { controller, provider, state } = await withDone();
    const kb = await controller.createKnowledgeBase({ name: '  ', description: '', assistantId: 'asst-1' });
    const [tool] = [...provider.tools.values()];
    const doneIds = state()
      .uploaded.filter((f) => f.status === 'done')
      .map((f) => f.id);
    expect(tool).toMatchObject({
      type: 'query',
      function: { name: 'knowledge-base' },
      knowledgeBases: [
        {
          provider: 'google',
          name: 'knowledge-base',
          description: 'Custom knowledge base',
          fileIds: doneIds,
        },
      ],
    });
    expect(provider.assistants.get('asst-1')?.model).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      toolIds: ['tool-old', tool?.id],
    });
    expect(state().knowledgeBases).toEqual([kb]);
    expect(state().alert?.variant).toBe('default');
    expect(state().creating).toBe(false);
  });

  it('leaves out a done file deleted at the provider meanwhile, and says so, instead of failing the whole tool', async () => {
    const { controller, provider, state } = await withDone();
    const [gone, ...kept] = state().uploaded.filter((f) => f.status === 'done');
    await provider.api.deleteFile(gone!.id);
    const kb = await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(kb?.fileIds).toEqual(kept.map((f) => f.id));
    expect(state().uploaded.map((f) => f.id)).not.toContain(gone!.id);
    expect(state().logs.map((l) => l.message)).toContainEqual(
      expect.stringContaining(`Left out 1 file(s) no longer at the provider: ${gone!.name}`),
    );
  });

  it('never creates a tool without its name: a refused name is reported, and nothing is created', async () => {
    const { controller, provider, state } = await withDone();
    provider.failNext('tool', { status: 400, body: '{"message":["function.name must be a-z"]}' });
    expect(
      await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' }),
    ).toBeNull();
    expect(provider.tools.size).toBe(0);
    expect(provider.calls.filter((c) => c === 'POST /tool')).toHaveLength(1);
    expect(state().alert).toEqual({ variant: 'destructive', message: 'Tool creation failed: Bad Request' });
    expect(state().knowledgeBases).toHaveLength(0);
  });

  it("checks the query tool's name before creating anything: at most 64 characters", async () => {
    const { controller, provider, state } = await withDone();
    provider.calls.length = 0;
    const long = 'a'.repeat(65);
    expect(
      await controller.createKnowledgeBase({ name: long, description: '', assistantId: 'asst-1' }),
    ).toBeNull();
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: "The name is 65 characters long; a query tool's name is at most 64.",
    });
    expect(provider.calls).toEqual([]);
    await controller.createKnowledgeBase({ name: 'a'.repeat(64), description: '', assistantId: 'asst-1' });
    expect([...provider.tools.values()][0]?.function?.name).toBe('a'.repeat(64));
  });

  it('is busy while creating, and ignores a second request until the first has finished', async () => {
    const { controller, provider, state } = await withDone();
    const held: (() => void)[] = [];
    const create = provider.api.createQueryTool;
    provider.api.createQueryTool = async (input) => {
      await new Promise<void>((resolve) => held.push(resolve));
      return create(input);
    };
    const first = controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(state().creating).toBe(true);
    const second = controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    await vi.advanceTimersByTimeAsync(0);
    for (const release of held) release();
    expect(await second).toBeNull();
    expect(await first).not.toBeNull();
    expect(state().creating).toBe(false);
    expect(provider.tools.size).toBe(1);
    expect(state().knowledgeBases).toHaveLength(1);
  });

  it('adds the tool id to model.toolIds only once, even when the assistant already lists it', async () => {
    const { controller, provider } = await withDone();
    // The provider answers with an id the assistant already has (a tool attached earlier).
    provider.api.createQueryTool = async () => ({ id: 'tool-old' });
    await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(provider.assistants.get('asst-1')?.model).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      toolIds: ['tool-old'],
    });
  });

  it('does not add the tool twice and reports failures with the status text', async () => {
    const { controller, provider, state } = await withDone();
    provider.failNext('tool', { status: 400 });
    await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(state().alert).toEqual({ variant: 'destructive', message: 'Tool creation failed: Bad Request' });
    provider.failNext('update', { status: 500 });
    await controller.createKnowledgeBase({ name: 'kb', description: '', assistantId: 'asst-1' });
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'Assistant update failed: Internal Server Error',
    });
    expect(state().knowledgeBases).toEqual([]);
  });
});
