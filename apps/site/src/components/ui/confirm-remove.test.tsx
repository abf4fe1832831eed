import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './button';
import { ConfirmRemove } from './confirm-remove';

/** A promise the test settles by hand, so the busy state can be seen. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function renderConfirm(onConfirm: () => Promise<unknown>, focusAfter?: () => void) {
  render(
    <>
      <h2 tabIndex={-1}>Items</h2>
      <ConfirmRemove
        trigger={<Button>Remove item</Button>}
        title="Remove this item?"
        description="It goes for good."
        confirmLabel="Remove"
        onConfirm={onConfirm}
        focusAfter={focusAfter}
      />
    </>,
  );
}

describe('ConfirmRemove', () => {
  it('moves focus into the dialog and back to the trigger on Cancel, without removing', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn(async () => undefined);
    renderConfirm(onConfirm);
    await user.click(screen.getByRole('button', { name: 'Remove item' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove this item?' });
    expect(dialog).toHaveAccessibleDescription('It goes for good.');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Remove item' })).toHaveFocus();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('stays open and busy while removing, then closes and returns focus', async () => {
    const user = userEvent.setup();
    const removal = deferred();
    renderConfirm(() => removal.promise);
    await user.click(screen.getByRole('button', { name: 'Remove item' }));
    const dialog = screen.getByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toHaveAttribute('aria-busy', 'true');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    removal.resolve();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Remove item' })).toHaveFocus());
  });

  it('shows a failure inside the dialog and lets the user try again', async () => {
    const user = userEvent.setup();
    const onConfirm = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new Error('The server refused.'))
      .mockResolvedValueOnce(undefined);
    renderConfirm(onConfirm);
    await user.click(screen.getByRole('button', { name: 'Remove item' }));
    const dialog = screen.getByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The server refused.');
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('hands focus to focusAfter once the removal is done (the trigger may be gone)', async () => {
    const user = userEvent.setup();
    renderConfirm(
      async () => undefined,
      () => screen.getByRole('heading', { name: 'Items' }).focus(),
    );
    await user.click(screen.getByRole('button', { name: 'Remove item' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Items' })).toHaveFocus());
  });

  it('controlled, without a trigger: shows the fields the action reads, and focuses `focusOnClose` on every close', async () => {
    const user = userEvent.setup();
    const banned: string[] = [];
    function Menu() {
      const [open, setOpen] = useState(false);
      const [length, setLength] = useState('1 day');
      const menu = useRef<HTMLButtonElement>(null);
      return (
        <>
          <Button ref={menu}>Actions</Button>
          {/* The opener goes once clicked, as a menu item does. */}
          {!open && <Button onClick={() => setOpen(true)}>Ban user</Button>}
          <ConfirmRemove
            open={open}
            onOpenChange={setOpen}
            focusOnClose={() => menu.current?.focus()}
            title="Ban user"
            description="They cannot sign in until the ban ends."
            confirmLabel="Ban"
            onConfirm={async () => void banned.push(length)}
          >
            <label>
              Ban length
              <select value={length} onChange={(e) => setLength(e.target.value)}>
                <option>1 day</option>
                <option>7 days</option>
              </select>
            </label>
          </ConfirmRemove>
        </>
      );
    }
    render(<Menu />);
    await user.click(screen.getByRole('button', { name: 'Ban user' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Ban user' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Ban user' });
    await user.selectOptions(within(dialog).getByLabelText('Ban length'), '7 days');
    await user.click(within(dialog).getByRole('button', { name: 'Ban' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(banned).toEqual(['7 days']);
    expect(screen.getByRole('button', { name: 'Actions' })).toHaveFocus();
  });
});
