import { render, screen, waitFor } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionalPart } from './optional-part';

afterEach(() => vi.restoreAllMocks());

describe('OptionalPart', () => {
  it('shows the part once its chunk has loaded', async () => {
    const Part = lazy(async () => ({ default: () => <p>account menu</p> }));
    render(
      <OptionalPart>
        <Part />
      </OptionalPart>,
    );
    await waitFor(() => expect(screen.getByText('account menu')).toBeVisible());
  });

  it('renders nothing when the chunk fails to load, and the page around it stays', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Part = lazy(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));
    render(
      <main>
        <h1>landing page</h1>
        <OptionalPart>
          <Part />
        </OptionalPart>
      </main>,
    );
    await vi.waitFor(() => expect(warn).toHaveBeenCalled(), { timeout: 5_000 });
    expect(screen.getByRole('heading', { name: 'landing page' })).toBeVisible();
    expect(screen.getByRole('main').children).toHaveLength(1);
  });
});
