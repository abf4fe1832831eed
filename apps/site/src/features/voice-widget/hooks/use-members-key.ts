import { useEffect, useState } from 'react';
import { loadPublicConfig } from '@/lib/public-config';
import { useSession } from '@/lib/session';

/**
 * The provider's public key for the sign-in-only pages: /config.json gives it only to a request with
 * a valid session (the page's own configuration, the same for everybody, never holds it).
 * `undefined` while it is on its way (the session is still being read, or the request is in flight),
 * so an ENGAGE clicked meanwhile waits for it rather than failing for want of a key; null when there
 * is none (no session, the server has none, the request failed) or when `enabled` is false (the
 * public pages use the everyone key).
 */
export function useMembersPublicKey(enabled: boolean): string | null | undefined {
  const { session, loading } = useSession();
  const token = session?.access_token ?? null;
  // Kept with the token it was fetched with: another session's key is never used.
  const [fetched, setFetched] = useState<{ token: string; key: string | null } | null>(null);
  useEffect(() => {
    if (!enabled || !token) return undefined;
    let live = true;
    const withSession: typeof fetch = (input, init) =>
      fetch(input, { ...init, headers: { ...init?.headers, Authorization: `Bearer ${token}` } });
    loadPublicConfig(withSession)
      .then((config) => live && setFetched({ token, key: config.provider.membersPublicKey ?? null }))
      // No key: the widget says the assistant cannot be reached, as with no public key at all.
      .catch(() => live && setFetched({ token, key: null }));
    return () => {
      live = false;
    };
  }, [enabled, token]);
  if (!enabled) return null;
  if (!token) return loading ? undefined : null;
  return fetched?.token === token ? fetched.key : undefined;
}
