import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, RouteErrorBoundary, staleVersionText } from './route-error-boundary';

afterEach(() => vi.restoreAllMocks());

const chromiumChunkError = new TypeError(
  'Failed to fetch dynamically imported module: http://127.0.0.1:8787/assets/onboarding-Bx1y2.js',
);

function Throws({ error }: { error: Error }): never {
  throw error;
}

describe('RouteErrorBoundary', () => {
  it("keeps the heading and, for a page whose code failed to download, asks for a reload instead of showing the module's URL", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    const { rerender } = render(
      <RouteErrorBoundary resetKey="/onboarding">
        <Throws error={chromiumChunkError} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    expect(screen.getByText(staleVersionText)).toBeVisible();
    expect(screen.getByText(/reload the page to get the latest version/i)).toBeVisible();
    expect(screen.queryByText(/assets\/onboarding/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Reload the page' }));
    expect(reload).toHaveBeenCalledOnce();

    rerender(
      <RouteErrorBoundary resetKey="/">
        <p>home page</p>
      </RouteErrorBoundary>,
    );
    expect(screen.getByText('home page')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the message of any other error a page threw', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <RouteErrorBoundary resetKey="/admin">
        <Throws error={new Error('Cannot read properties of undefined')} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    expect(screen.getByText('Cannot read properties of undefined')).toBeVisible();
    expect(screen.queryByText(staleVersionText)).toBeNull();
  });
});

describe('isChunkLoadError', () => {
  it("recognises every browser's failed module download, and nothing else", () => {
    expect(isChunkLoadError(chromiumChunkError)).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true); // Safari
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /a.js'))).toBe(true); // Firefox
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/admin.css'))).toBe(true); // Vite
    expect(
      isChunkLoadError(Object.assign(new Error('Loading chunk 7 failed.'), { name: 'ChunkLoadError' })),
    ).toBe(true);
    expect(isChunkLoadError(new Error('Failed to fetch'))).toBe(false); // a failed API call is not a stale page
    expect(isChunkLoadError(new Error('Something broke'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
