import type { GoTrueClient } from '@supabase/auth-js';
import { describe, expect, it, vi } from 'vitest';

describe('auth client hand-off', () => {
  it('hands a client built before the session store listens over once it does, and later ones at once', async () => {
    vi.resetModules();
    const { authClientCreated, onAuthClientCreated } = await import('./auth-client-events');
    const early = { id: 'early' } as unknown as GoTrueClient;
    const late = { id: 'late' } as unknown as GoTrueClient;
    authClientCreated(early);
    const seen: GoTrueClient[] = [];
    onAuthClientCreated((auth) => seen.push(auth));
    authClientCreated(late);
    expect(seen).toEqual([early, late]);
  });
});
