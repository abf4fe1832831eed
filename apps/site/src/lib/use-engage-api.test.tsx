import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testSession, withSession } from '@/testing/session';
import { EngageApiError } from './engage-api';
import { useEngageApi } from './use-engage-api';

afterEach(() => vi.unstubAllGlobals());

describe('useEngageApi', () => {
  it('asks the session whether it has ended when the server answers 401, and only then', async () => {
    const answers = [Response.json({ ok: true }), Response.json({ error: 'unauthorized' }, { status: 401 })];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answers.shift()!),
    );
    const session = testSession({});
    const { result } = renderHook(() => useEngageApi(), { wrapper: withSession(session) });

    expect(await result.current.json('GET', '/api/admin/users')).toEqual({ ok: true });
    expect(session.confirm).not.toHaveBeenCalled();

    const refused = await result.current.json('GET', '/api/admin/users').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngageApiError);
    expect(refused).toMatchObject({ status: 401 });
    expect(session.confirm).toHaveBeenCalledTimes(1);
  });

  it('keeps one client while the session source stays the same', () => {
    const session = testSession({});
    const { result, rerender } = renderHook(() => useEngageApi(), { wrapper: withSession(session) });
    const first = result.current;
    rerender();
    expect(result.current).toBe(first);
  });
});
