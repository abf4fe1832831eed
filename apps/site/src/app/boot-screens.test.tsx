import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicConfig } from '@/lib/public-config';
import { loadConfigInto } from './boot-screens';

const config = { siteTitle: 'Engage' } as PublicConfig;
let root: Root | undefined;

afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('loading the configuration', () => {
  it('shows a busy loading state, then a readable error with Try again, which loads again', async () => {
    const container = document.body.appendChild(document.createElement('div'));
    root = createRoot(container);
    const tries = [deferred<PublicConfig>(), deferred<PublicConfig>()];
    const load = vi.fn(
      () => (tries[load.mock.calls.length - 1] as ReturnType<typeof deferred<PublicConfig>>).promise,
    );

    let loaded: Promise<PublicConfig> = Promise.resolve(config);
    act(() => {
      loaded = loadConfigInto(root as Root, load);
    });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the site…');
    expect(screen.getByRole('main')).toHaveAttribute('aria-busy', 'true');

    await act(async () => tries[0]?.reject(new Error('The server answered 500 for /config.json.')));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The site cannot reach its server');
    expect(alert).toHaveTextContent('Details: The server answered 500 for /config.json.');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('status')).toHaveTextContent('Loading the site…');
    await act(async () => tries[1]?.resolve(config));
    await expect(loaded).resolves.toBe(config);
  });
});
