import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteErrorBoundary } from './route-error-boundary';

afterEach(() => vi.restoreAllMocks());

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module');
}

describe('RouteErrorBoundary', () => {
  it('shows the routing error view with the error message, and clears it on navigation', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(
      <RouteErrorBoundary resetKey="/onboarding">
        <Broken />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    expect(screen.getByText('Failed to fetch dynamically imported module')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');

    rerender(
      <RouteErrorBoundary resetKey="/">
        <p>home page</p>
      </RouteErrorBoundary>,
    );
    expect(screen.getByText('home page')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
