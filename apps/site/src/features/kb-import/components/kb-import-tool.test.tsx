import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { memoryStorage, storageKeys } from '../lib/storage';
import { chooseFiles, renderTool, tick, typeKey, withToolTestHooks } from '../testing/render-tool';

withToolTestHooks();

describe('the card', () => {
  it('is titled with the provider name and has the four tabs', () => {
    renderTool();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Vapi Knowledge Base Bulk Import Tool',
    );
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Setup',
      'Files',
      'Import',
      'Logs',
    ]);
  });
});

describe('Setup tab', () => {
  it('saves the key and the assistant, and loads the assistants with the key', async () => {
    const { user, storage, net } = renderTool();
    await typeKey(user);
    await user.click(await screen.findByRole('combobox', { name: 'Assistant' }));
    await user.click(await screen.findByRole('option', { name: 'Index' }));
    expect(screen.getByRole('combobox', { name: 'Assistant' })).toHaveTextContent('Index');
    await tick(500);
    expect(storage.getItem(storageKeys.apiKey)).toBe('sk-private');
    expect(storage.getItem(storageKeys.assistantId)).toBe('asst-1');
    // The key is used once typing has settled, not letter by letter.
    expect(net.calls.filter((c) => c.path === '/assistant').map((c) => c.authorization)).toEqual([
      'Bearer sk-private',
    ]);
  });

  it('offers no select item with an empty value, even when the provider lists an assistant without an id', async () => {
    const { user, provider } = renderTool();
    provider.assistants.set('', { id: '', name: 'Nameless' });
    await typeKey(user);
    await user.click(await screen.findByRole('combobox', { name: 'Assistant' }));
    expect(await screen.findByRole('option', { name: 'Index' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Nameless' })).toBeNull();
  });

  it('disables the key field with a note when the server holds the key, and never stores a key', async () => {
    const storage = memoryStorage({ [storageKeys.apiKey]: 'old-key' });
    const { net } = renderTool({ serverHoldsPrivateKey: true, storage });
    expect(screen.getByLabelText('Private API key')).toBeDisabled();
    expect(screen.getByText(/The server holds the Vapi private key/)).toBeInTheDocument();
    expect(storage.getItem(storageKeys.apiKey)).toBeNull();
    await screen.findByRole('combobox', { name: 'Assistant' });
    await waitFor(() => expect(net.calls.some((c) => c.path === '/assistant')).toBe(true));
    expect(net.calls[0]?.authorization).toBe('Bearer user-access-token');
  });
});

describe('Import tab', () => {
  it('explains what is missing, then creates the knowledge base and lists it', async () => {
    const { user, provider, net } = renderTool();
    await user.click(screen.getByRole('tab', { name: 'Import' }));
    expect(screen.getByTestId('kb-attach-to')).toHaveTextContent(
      'Choose the assistant to attach it to on the Setup tab.',
    );
    await user.click(screen.getByRole('button', { name: 'Create knowledge base' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please provide API key and select an assistant',
    );

    await user.click(screen.getByRole('tab', { name: 'Setup' }));
    await typeKey(user);
    await user.click(await screen.findByRole('combobox', { name: 'Assistant' }));
    await user.click(await screen.findByRole('option', { name: 'Index' }));
    await user.click(screen.getByRole('tab', { name: 'Import' }));
    await user.click(screen.getByRole('button', { name: 'Create knowledge base' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No files selected for knowledge base');

    await chooseFiles(user, [new File(['hello'], 'faq.md')]);
    await user.click(await screen.findByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() => expect(provider.files.size).toBe(1));
    await tick(3_000);
    await waitFor(() =>
      expect(within(screen.getByRole('listitem', { name: 'faq.md' })).getByText('done')).toBeInTheDocument(),
    );
    await user.click(screen.getByRole('tab', { name: 'Import' }));
    // The tab says again which assistant the tool goes to.
    expect(screen.getByTestId('kb-attach-to')).toHaveTextContent('It will be attached to Index');
    await user.type(screen.getByLabelText('Knowledge base name'), 'Product FAQ');
    expect(screen.getByText('Product-FAQ')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create knowledge base' }));
    expect(
      await screen.findByText(/Knowledge base "Product FAQ" created with 1 file\(s\) and attached to Index/),
    ).toBeInTheDocument();
    const tool = net.calls.find((c) => c.method === 'POST' && c.path === '/tool');
    expect(tool?.body).toEqual({
      type: 'query',
      function: { name: 'Product-FAQ' },
      knowledgeBases: [
        {
          provider: 'google',
          name: 'Product FAQ',
          description: 'Custom knowledge base',
          fileIds: [...provider.files.keys()],
        },
      ],
    });
    const patch = net.calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toEqual({
      model: { provider: 'openai', model: 'gpt-4o', toolIds: ['tool-old', expect.stringMatching(/^tool-/)] },
    });
    expect(screen.getByRole('heading', { name: 'Created knowledge bases (1)' })).toBeInTheDocument();
  });
});

describe('Import tab, v2 knowledge base', () => {
  it('offers the v2 base as a clear alternative, shows indexing progress and attaches its tool', async () => {
    const { user, provider, net } = renderTool();
    await user.click(screen.getByRole('tab', { name: 'Setup' }));
    await typeKey(user);
    await user.click(await screen.findByRole('combobox', { name: 'Assistant' }));
    await user.click(await screen.findByRole('option', { name: 'Index' }));
    await chooseFiles(user, [new File(['hello'], 'faq.md')]);
    await user.click(await screen.findByRole('button', { name: 'Upload 1 file(s)' }));
    await waitFor(() => expect(provider.files.size).toBe(1));
    await tick(3_000);
    await waitFor(() =>
      expect(within(screen.getByRole('listitem', { name: 'faq.md' })).getByText('done')).toBeInTheDocument(),
    );
    await user.click(screen.getByRole('tab', { name: 'Import' }));
    const group = screen.getByRole('group', { name: 'Create as' });
    expect(within(group).getByRole('radio', { name: /Query tool/ })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: /v2 knowledge base/ }));
    await user.type(screen.getByLabelText('Knowledge base name'), 'Product FAQ');
    await user.click(screen.getByRole('button', { name: 'Create v2 knowledge base' }));
    expect(await screen.findByText('Indexing files: 0 of 1 finished')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Indexing files: 0 of 1 finished' })).toBeInTheDocument();
    await tick(3_000);
    expect(
      await screen.findByText(/Knowledge base "Product FAQ" created with 1 file\(s\) and attached to Index/),
    ).toBeInTheDocument();
    const [base] = [...provider.bases.values()];
    expect(net.calls.find((c) => c.method === 'POST' && c.path === '/v2/knowledge-base')?.body).toEqual({
      name: 'Product FAQ',
      description: 'Custom knowledge base',
    });
    expect(net.calls.some((c) => c.method === 'POST' && c.path === '/tool')).toBe(false);
    expect(net.calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      model: { provider: 'openai', model: 'gpt-4o', toolIds: ['tool-old', base?.toolId] },
    });
    expect(screen.getByText(`v2 knowledge base ${base?.id}`)).toBeInTheDocument();
  });
});

describe('Logs tab', () => {
  it('shows a timestamped line for each action and error', async () => {
    const { user } = renderTool();
    await chooseFiles(user, [new File(['x'], 'a.md')]);
    await user.click(screen.getByRole('tab', { name: 'Logs' }));
    const log = screen.getByRole('list', { name: 'Activity log' });
    const line = within(log).getByText(/API key required to check for duplicates/);
    expect(line.querySelector('time')?.getAttribute('dateTime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(line).toHaveTextContent(/^\[\d{2}:\d{2}:\d{2}\] API key required to check for duplicates$/);
  });

  it('shows nothing-yet text before any action', async () => {
    const { user } = renderTool();
    await user.click(screen.getByRole('tab', { name: 'Logs' }));
    expect(screen.getByText('Nothing has happened yet.')).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Logs' }), { key: 'ArrowLeft' });
  });
});
