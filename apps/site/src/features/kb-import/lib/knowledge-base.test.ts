import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeProvider } from '../testing/fake-provider';
import { KbImportController } from './controller';
import { memoryStorage } from './storage';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function withDone() {
  const provider = createFakeProvider({ processingMs: 2_000 });
  const controller = new KbImportController({
    storage: memoryStorage(),
    providerName: 'Vapi',
    getApi: () => provider.api,
  });
  controller.activate();
  await controller.addFiles([new File(['a'], 'a.md'), new File(['b'], 'b.md')]);
  await controller.upload();
  await vi.advanceTimersByTimeAsync(3_000);
  expect(controller.getState().uploaded.every((f) => f.status === 'done')).toBe(true);
  return { provider, controller, state: () => controller.getState() };
}

describe('a v2 knowledge base', () => {
  it('is created from the done files, shows indexing progress, then its tool joins the assistant model', async () => {
    const { provider, controller, state } = await withDone();
    const created = controller.createKnowledgeBase({
      name: 'Docs',
      description: '',
      assistantId: 'asst-1',
      kind: 'v2',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(state().creating).toBe(true);
    expect(state().indexing).toEqual({ settled: 0, total: 2 });
    // No assistant change before every file is indexed.
    expect(provider.calls.some((c) => c.startsWith('PATCH'))).toBe(false);
    await vi.advanceTimersByTimeAsync(3_000);
    const kb = await created;
    const [base] = [...provider.bases.values()];
    expect(base?.files.map((f) => f.fileId).sort()).toEqual(
      state()
        .uploaded.map((f) => f.id)
        .sort(),
    );
    expect(kb).toMatchObject({ kind: 'v2', knowledgeBaseId: base?.id, toolId: base?.toolId, name: 'Docs' });
    expect(provider.assistants.get('asst-1')?.model).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      toolIds: ['tool-old', base?.toolId],
    });
    expect(provider.tools.size).toBe(0);
    expect(state()).toMatchObject({ creating: false, indexing: null });
    expect(state().alert).toEqual({
      variant: 'default',
      message: 'Knowledge base "Docs" created with 2 file(s) and attached to Index.',
    });
  });

  it('says which step failed and leaves the assistant alone', async () => {
    const { provider, controller, state } = await withDone();
    provider.failNext('v2', { status: 400 });
    await controller.createKnowledgeBase({
      name: 'Docs',
      description: '',
      assistantId: 'asst-1',
      kind: 'v2',
    });
    expect(state().alert).toEqual({
      variant: 'destructive',
      message: 'Knowledge base creation failed: Bad Request',
    });
    expect(provider.assistants.get('asst-1')?.model?.toolIds).toEqual(['tool-old']);
    expect(state().knowledgeBases).toEqual([]);
  });
});
