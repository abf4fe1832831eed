import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { memoryStorage, storageKeys } from '../lib/storage';
import { chooseFiles, renderTool, tick, typeKey, withToolTestHooks } from '../testing/render-tool';

withToolTestHooks();

describe('Files tab', () => {
  it('asks for a key before checking duplicates', async () => {
    const { user } = renderTool();
    await chooseFiles(user, [new File(['x'], 'a.md')]);
    expect(await screen.findByRole('alert')).toHaveTextContent('API key required to check for duplicates');
  });

  it('skips unsupported and duplicate files, uploads the rest and shows them reach done or failed', async () => {
    const { user, provider, net } = renderTool();
    await provider.api.uploadFile(new File(['abc'], 'old.md'), 'old.md');
    await typeKey(user);
    await chooseFiles(user, [
      new File(['abc'], 'old.md'),
      new File(['png'], 'pic.png'),
      new File(['hello'], 'notes.md'),
      new File([''], 'empty.txt'),
      new File(['{"a":'], 'broken.json'),
    ]);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      '3 file(s) skipped: old.md (duplicate - already exists in Vapi), pic.png (unsupported format), empty.txt (empty file)',
    );
    expect(alert).toHaveAttribute('data-variant', 'destructive');
    const selected = screen.getByRole('list', { name: 'Selected files' });
    // the selected list is at most 8rem high (max-h-32), the uploaded one 24rem (max-h-96)
    // from a tablet up; on a phone it scrolls with the page (a nested scroll is hard to use by thumb).
    expect(selected).toHaveClass('max-h-32', 'overflow-y-auto');
    expect(
      within(selected)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('notes.md5 B'), expect.stringContaining('broken.json5 B')]);
    await user.click(await screen.findByRole('button', { name: 'Upload 2 file(s)' }));
    const uploaded = await screen.findByRole('list', { name: 'Uploaded files' });
    expect(uploaded).toHaveClass('sm:max-h-96', 'sm:overflow-y-auto');
    expect(uploaded).not.toHaveClass('max-h-96');
    // old.md, already at the provider, was listed when the key settled.
    expect(within(uploaded).getByRole('listitem', { name: 'old.md' })).toBeInTheDocument();
    await waitFor(() => expect(within(uploaded).getAllByText('processing')).toHaveLength(3));
    expect(within(uploaded).getByRole('progressbar', { name: 'notes.md progress' })).toBeInTheDocument();
    const upload = net.calls.find((c) => c.method === 'POST' && c.path === '/file');
    expect(((upload?.body as FormData).get('file') as File).type).toBe('text/markdown');
    await tick(3_000);
    await waitFor(() => {
      expect(
        within(screen.getByRole('listitem', { name: 'notes.md' })).getByText('done'),
      ).toBeInTheDocument();
      expect(
        within(screen.getByRole('listitem', { name: 'broken.json' })).getByText('failed'),
      ).toBeInTheDocument();
    });
    // Said as a person would ("broken.json is failed" before).
    expect(screen.getByText('broken.json failed')).toBeInTheDocument();
    // Why, in the row: the provider gave no reason, the original shows one.
    await waitFor(() =>
      expect(screen.getByRole('listitem', { name: 'broken.json' })).toHaveTextContent(
        'Vapi could not process this file: not valid JSON',
      ),
    );
  });

  it('takes dropped files like chosen ones', async () => {
    const { user } = renderTool();
    await typeKey(user);
    await user.click(screen.getByRole('tab', { name: 'Files' }));
    const zone = screen.getByText(/Drop files here/).parentElement as HTMLElement;
    fireEvent.drop(zone, { dataTransfer: { files: [new File(['x'], 'dropped.csv')] } });
    const selected = await screen.findByRole('list', { name: 'Selected files' });
    expect(within(selected).getByText('dropped.csv')).toBeInTheDocument();
  });

  it('shows overall progress and cancels, putting unsent files back in the selection', async () => {
    const { user, provider } = renderTool();
    const upload = provider.api.uploadFile;
    provider.api.uploadFile = (f, n) =>
      new Promise((resolve) => setTimeout(() => resolve(upload(f, n)), 1_000));
    await typeKey(user);
    await chooseFiles(
      user,
      Array.from({ length: 6 }, (_, i) => new File(['x'], `f${i}.md`)),
    );
    await user.click(await screen.findByRole('button', { name: 'Upload 6 file(s)' }));
    // Three lanes start at once; each answer takes 1 s, and a lane waits 200 ms before its next file.
    expect(screen.getByRole('progressbar', { name: 'Overall upload progress' })).toBeInTheDocument();
    await tick(1_000);
    expect(screen.getByText('3 of 6 file(s) sent')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    await tick(0);
    expect(
      screen.getByText('Upload cancelled: 3 uploaded, 3 not sent (still selected).'),
    ).toBeInTheDocument();
    const selected = screen.getByRole('list', { name: 'Selected files' });
    expect(
      within(selected)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.match(/f\d\.md/)?.[0]),
    ).toEqual(['f3.md', 'f4.md', 'f5.md']);
    expect([...provider.files.values()].map((f) => f.name)).toEqual(['f0.md', 'f1.md', 'f2.md']);
    // Nothing more is sent later.
    await tick(60_000);
    expect(provider.files.size).toBe(3);
  });

  it('shows a status icon per file: done, failed, processing, and a neutral one for anything else', async () => {
    const record = (id: string, name: string, status: string) => ({
      id,
      name,
      bytes: 2048,
      mimetype: 'text/markdown',
      status,
      createdAt: '',
      url: '',
    });
    const storage = memoryStorage({
      [storageKeys.uploadedFiles]: JSON.stringify([
        record('file-1', 'ok.md', 'done'),
        record('file-2', 'bad.md', 'failed'),
        record('file-3', 'busy.md', 'processing'),
        record('file-4', 'odd.md', 'archived'),
      ]),
    });
    const { user } = renderTool({ storage });
    await user.click(screen.getByRole('tab', { name: 'Files' }));
    const icon = (name: string) => screen.getByRole('listitem', { name }).querySelector('svg');
    expect(icon('ok.md')).toHaveClass('text-emerald-600');
    expect(icon('bad.md')).toHaveClass('text-destructive');
    expect(icon('busy.md')).toHaveClass('animate-spin');
    expect(icon('odd.md')).toHaveClass('text-muted-foreground');
    expect(screen.getByRole('listitem', { name: 'ok.md' })).toHaveTextContent('2.0 KB');
  });

  it('offers Retry only for a failed file whose original is still held; it can still be deleted', async () => {
    const storage = memoryStorage({
      [storageKeys.uploadedFiles]: JSON.stringify([
        { id: 'failed-gone', name: 'gone.md', bytes: 5, mimetype: 'text/markdown', status: 'failed' },
      ]),
    });
    const { user } = renderTool({ storage });
    await typeKey(user);
    await user.click(screen.getByRole('tab', { name: 'Files' }));
    const retry = await screen.findByRole('button', { name: 'Retry gone.md' });
    expect(retry).toBeDisabled();
    expect(retry).toHaveAttribute('title', expect.stringMatching(/original is no longer held/));
    expect(screen.queryByRole('button', { name: /^Retry failed/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete gone.md' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 1 file?' });
    expect(dialog).toHaveTextContent('"gone.md" never reached Vapi and will only be removed from this list.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete 1 file' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'gone.md' })).toBeNull());
  });

  it('keeps a failed upload, retries it, and bulk-deletes with the pacing', async () => {
    const { user, provider } = renderTool();
    await typeKey(user);
    provider.failNext('upload', { status: 400, body: 'Invalid file' });
    await chooseFiles(user, [new File(['a'], 'a.md'), new File(['b'], 'b.md')]);
    await user.click(await screen.findByRole('button', { name: 'Upload 2 file(s)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Upload failed: 400 Bad Request - Invalid file',
    );
    await user.click(await screen.findByRole('button', { name: 'Retry a.md' }));
    expect(await screen.findByText('Successfully retried 1 of 1 files')).toBeInTheDocument();
    expect(provider.files.size).toBe(2);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Delete selected (2)' }));
    await user.click(await screen.findByRole('button', { name: 'Delete 2 files' }));
    await tick(600);
    expect(await screen.findByText('Successfully deleted 2 files from VAPI.')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveAttribute('data-variant', 'default');
    expect(provider.files.size).toBe(0);
  });
});
