import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseFiles, renderTool, tick, typeKey } from '../testing/render-tool';
import { splitForTruncation } from './file-name';

beforeAll(() => {
  // jsdom lacks what Radix Select uses for pointer handling and scrolling.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether leaving the page now would be questioned (a listener cancelled beforeunload). */
function leavingAsks(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('deleting asks first', () => {
  it('names how many, cancels with Escape (focus back on the button), and deletes once confirmed', async () => {
    const { user, provider } = renderTool();
    await typeKey(user);
    await chooseFiles(user, [new File(['a'], 'a.md'), new File(['b'], 'b.md'), new File(['c'], 'c.md')]);
    await user.click(screen.getByRole('button', { name: 'Upload 3 file(s)' }));
    await vi.waitFor(() => expect(provider.files.size).toBe(3), { timeout: 5_000 });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all' }));
    const bulk = screen.getByRole('button', { name: 'Delete selected (3)' });
    await user.click(bulk);
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 3 files?' });
    expect(dialog).toHaveTextContent('3 files will be deleted from Vapi. This cannot be undone.');
    // Focus is inside the dialog; Escape leaves everything as it was.
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull(), { timeout: 5_000 });
    await vi.waitFor(() => expect(bulk).toHaveFocus(), { timeout: 5_000 });
    expect(provider.files.size).toBe(3);
    expect(provider.calls.some((c) => c.startsWith('DELETE'))).toBe(false);

    // One file, from its row: the dialog names it.
    await user.click(screen.getByRole('button', { name: 'Delete a.md' }));
    const one = await screen.findByRole('alertdialog', { name: 'Delete 1 file?' });
    expect(one).toHaveTextContent('"a.md" will be deleted from Vapi.');
    await user.click(within(one).getByRole('button', { name: 'Cancel' }));
    expect(provider.files.size).toBe(3);

    await user.click(bulk);
    await user.click(await screen.findByRole('button', { name: 'Delete 3 files' }));
    await tick(1_200);
    expect(await screen.findByText('Successfully deleted 3 files from VAPI.')).toBeInTheDocument();
    expect(provider.files.size).toBe(0);
  });
});

describe('leaving during an upload', () => {
  it('asks before the page is left while files are being sent, and only then', async () => {
    const { user, provider } = renderTool();
    const upload = provider.api.uploadFile;
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    provider.api.uploadFile = async (f, n) => {
      await held;
      return upload(f, n);
    };
    await typeKey(user);
    await chooseFiles(user, [new File(['a'], 'a.md')]);
    expect(leavingAsks()).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file(s)' }));
    await screen.findByRole('button', { name: 'Cancel upload' });
    expect(leavingAsks()).toBe(true);
    await act(async () => release());
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel upload' })).toBeNull(), {
      timeout: 5_000,
    });
    expect(leavingAsks()).toBe(false);
  });
});

describe('with the key held by the server', () => {
  it('asks only for an assistant, never for the key', async () => {
    const { user } = renderTool({ serverHoldsPrivateKey: true });
    await user.click(screen.getByRole('tab', { name: 'Import' }));
    await user.click(screen.getByRole('button', { name: 'Create knowledge base' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Please select an assistant');
    expect(alert).not.toHaveTextContent(/API key/);
  });
});

describe('the Import tab defaults', () => {
  it('shows the default name and description as placeholders, with empty values', async () => {
    const { user } = renderTool();
    await user.click(screen.getByRole('tab', { name: 'Import' }));
    const name = screen.getByLabelText('Knowledge base name');
    const description = screen.getByLabelText('Description');
    expect(name).toHaveValue('');
    expect(name).toHaveAttribute('placeholder', 'knowledge-base (default)');
    expect(description).toHaveValue('');
    expect(description).toHaveAttribute('placeholder', 'Custom knowledge base (default)');
  });
});

describe('long file names', () => {
  it('truncate in the middle, keeping the extension, with the full name as title and text', async () => {
    expect(splitForTruncation('very-long-name.pdf')).toEqual({ head: 'very-long-na', tail: 'me.pdf' });
    expect(splitForTruncation('a.md')).toEqual({ head: 'a.md', tail: '' });
    expect(splitForTruncation('README')).toEqual({ head: 'README', tail: '' });
    const { user } = renderTool();
    await typeKey(user);
    const long = 'quarterly-report-for-the-board-of-directors-final-version.pdf';
    await chooseFiles(user, [new File(['%PDF-1.4'], long)]);
    const list = await screen.findByRole('list', { name: 'Selected files' });
    // Read whole by assistive technology; the visible copy is cut in the middle.
    expect(within(list).getByText(long)).toHaveClass('sr-only');
    const shown = within(list).getByTitle(long).querySelector('[aria-hidden]') as HTMLElement;
    // The extension is its own unshrinking part, so it stays in view however narrow the row.
    expect(shown.lastElementChild).toHaveTextContent('on.pdf');
    expect(shown.lastElementChild).toHaveClass('shrink-0');
    expect(shown.firstElementChild).toHaveClass('truncate');
    expect(shown).toHaveTextContent(long);
  });
});
