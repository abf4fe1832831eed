import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage, storageKeys } from '../lib/storage';
import { createFakeProvider } from '../testing/fake-provider';
import { chooseFiles, renderTool, tick } from '../testing/render-tool';

// What the tool shows when it opens: the provider's files, query tools and knowledge
// bases from any browser, the assistant chosen before a reload, the size limit, and the checks made
// before anything is created or deleted. On the fake clock alone, as kb-import-tool.test.tsx.

beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
  (globalThis as { jest?: unknown }).jest = {
    advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms),
  };
});
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A browser that already holds a key (an earlier visit): the tool opens with it. */
const keyed = () => {
  const storage = memoryStorage();
  storage.setItem(storageKeys.apiKey, 'sk-private');
  return storage;
};

describe('opening the tool', () => {
  it("lists the provider's files and the tools and bases made elsewhere, without being asked", async () => {
    const provider = createFakeProvider({ processingMs: 0 });
    const held = await provider.api.uploadFile(new File(['held'], 'held.md'), 'held.md');
    await provider.api.createQueryTool({
      type: 'query',
      function: { name: 'team-faq' },
      knowledgeBases: [{ provider: 'google', name: 'team-faq', description: 'd', fileIds: [held.id] }],
    });
    await provider.api.createKnowledgeBaseV2({ name: 'Handbook', description: 'd' });
    const { user } = renderTool({ storage: keyed(), provider });
    await user.click(screen.getByRole('tab', { name: 'Files' }));
    expect(await screen.findByRole('heading', { name: 'Uploaded files (1)' })).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'held.md' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Import' }));
    const region = await screen.findByRole('region', { name: 'Knowledge bases and query tools at Vapi (2)' });
    const names = within(region)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(names).toEqual([
      expect.stringMatching(/^Handbook0 file\(s\)v2 knowledge base/),
      expect.stringMatching(/^team-faq1 file\(s\)query tool/),
    ]);

    await user.click(screen.getByRole('tab', { name: 'Files' }));
    // Deleting it warns that the tool uses it, by name; cancelled, the file stays.
    await user.click(screen.getByRole('button', { name: 'Delete held.md' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 1 file?' });
    expect(dialog).toHaveTextContent('held.md is used by team-faq, which will no longer find its content.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(provider.files.size).toBe(1);
  });

  it('keeps the assistant chosen just before a reload (the page going away saves it)', async () => {
    const storage = keyed();
    const first = renderTool({ storage });
    const select = screen.getByRole('combobox', { name: 'Assistant' });
    await waitFor(() => expect(select).toBeEnabled());
    await first.user.click(select);
    await first.user.click(await screen.findByRole('option', { name: 'Index' }));
    // Reloaded within the 500 ms the setting waits: nothing unmounts, the page hides.
    fireEvent(window, new Event('pagehide'));
    expect(storage.getItem(storageKeys.assistantId)).toBe('asst-1');
    first.view.unmount();
    renderTool({ storage });
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Assistant' })).toHaveTextContent('Index'),
    );
  });
});

describe('checks made when choosing and creating', () => {
  it('states the 10 MB limit and the types, and refuses a larger file when chosen', async () => {
    const { user } = renderTool({ storage: keyed() });
    await user.click(screen.getByRole('tab', { name: 'Files' }));
    expect(screen.getByLabelText('Choose files')).toHaveAccessibleDescription(
      /Up to 10 MB each\. Supported: \.txt, \.pdf/,
    );
    const big = new File(['x'], 'big.txt');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    await chooseFiles(user, [big, new File(['ok'], 'ok.md')]);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '1 file(s) skipped: big.txt (larger than 10 MB)',
    );
    const selected = screen.getByRole('list', { name: 'Selected files' });
    expect(within(selected).getAllByRole('listitem')).toHaveLength(1);
    expect(within(selected).getByRole('listitem')).toHaveTextContent('ok.md');
  });

  it("holds a query tool's name to the provider's 64 characters, and says so", async () => {
    const { user } = renderTool({ storage: keyed() });
    await user.click(screen.getByRole('tab', { name: 'Import' }));
    const name = screen.getByLabelText('Knowledge base name');
    expect(name).toHaveAttribute('maxLength', '64');
    expect(name).toHaveAccessibleDescription(/at most 64 characters/);
    await tick(0);
  });
});
