import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SupabaseClient } from '@/lib/supabase';
import { profileText } from '../messages';
import { Passkeys } from './passkeys';

interface Item {
  id: string;
  friendly_name?: string;
  created_at: string;
  last_used_at?: string;
}

/** auth-js's passkey calls over an in-memory list, as the server would answer them. */
function fakeAuth() {
  let items: Item[] = [];
  let next = 1;
  const auth = {
    registerPasskey: vi.fn(async () => {
      const item = { id: `p${next++}`, created_at: '2026-11-26T01:00:00.000Z' };
      items.push(item);
      return { data: item, error: null };
    }),
    passkey: {
      list: vi.fn(async () => ({ data: items, error: null })),
      update: vi.fn(async ({ passkeyId, friendlyName }: { passkeyId: string; friendlyName: string }) => {
        items = items.map((i) => (i.id === passkeyId ? { ...i, friendly_name: friendlyName } : i));
        return { data: items.find((i) => i.id === passkeyId), error: null };
      }),
      delete: vi.fn(async ({ passkeyId }: { passkeyId: string }) => {
        items = items.filter((i) => i.id !== passkeyId);
        return { data: null, error: null };
      }),
    },
  };
  return auth;
}

let auth = fakeAuth();
const supabase = async () => ({ auth }) as unknown as SupabaseClient;

beforeEach(() => {
  auth = fakeAuth();
  Object.defineProperty(window, 'PublicKeyCredential', { value: class {}, configurable: true });
});

describe('Passkeys on the profile', () => {
  it('adds a passkey under a name, renames it, and removes it after a confirmation', async () => {
    const user = userEvent.setup();
    render(<Passkeys supabase={supabase} />);
    expect(await screen.findByText(profileText.noPasskeys)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Passkey name'), 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('status')).toHaveTextContent(profileText.passkeyAdded);
    expect(auth.passkey.update).toHaveBeenCalledWith({ passkeyId: 'p1', friendlyName: 'Laptop' });
    const list = screen.getByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByRole('listitem')).toHaveTextContent(/Laptop.*Last used Never/);

    await user.click(within(list).getByRole('button', { name: 'Rename Laptop' }));
    const field = within(list).getByLabelText('New name');
    await user.clear(field);
    await user.type(field, 'Phone');
    await user.click(within(list).getByRole('button', { name: 'Save' }));
    expect(await within(list).findByText('Phone')).toBeInTheDocument();

    await user.click(within(list).getByRole('button', { name: 'Remove Phone' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove this passkey?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(auth.passkey.delete).not.toHaveBeenCalled();
    await user.click(within(list).getByRole('button', { name: 'Remove Phone' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(profileText.noPasskeys)).toBeInTheDocument();
    expect(auth.passkey.delete).toHaveBeenCalledWith({ passkeyId: 'p1' });
  });

  it("says a cancelled ceremony plainly, and shows the server's refusal as it is", async () => {
    const user = userEvent.setup();
    render(<Passkeys supabase={supabase} />);
    await screen.findByText(profileText.noPasskeys);
    auth.registerPasskey.mockResolvedValueOnce({
      data: null,
      error: {
        message: 'cancelled',
        code: 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY',
        cause: { name: 'NotAllowedError' },
      },
    } as never);
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(profileText.passkeyCancelled);
    auth.registerPasskey.mockResolvedValueOnce({
      data: null,
      error: { message: 'AAL2 required to change passkeys', code: 'insufficient_aal' },
    } as never);
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('AAL2 required to change passkeys');
  });
});
