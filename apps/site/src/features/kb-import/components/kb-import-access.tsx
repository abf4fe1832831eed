import { useCallback, useEffect, useRef, useState } from 'react';
import { KbImportTool, type KbImportToolProps } from './kb-import-tool';
import { NoAccess } from './no-access';

export interface KbImportAccessProps extends KbImportToolProps {
  /** The signed-in user's `app_metadata.role` from the session: a hint, the server decides. */
  userRole: unknown;
  email?: string;
  /**
   * Refreshes the session and resolves to the role its new token carries (NoAccess's Check again): a
   * role given since sign-in then counts without signing out.
   */
  refreshRole?: () => Promise<unknown>;
}

/** Who may use the server-held key (docs/architecture.md, "Roles"). */
export const mayUseServerKey = (role: unknown): boolean => role === 'operator' || role === 'admin';

type Mode = 'server' | 'no-access' | 'own-key';

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/**
 * The import tool behind the role check: operators and admins use the server's key through the
 * proxy; anyone else sees NoAccess, from which they may switch to typing their own key (the tool's
 * mode for a server without a key: requests go from the browser straight to the provider). A 403
 * `operator_required` from the proxy (the role was taken away, or the session is older than a
 * change) shows NoAccess too.
 */
export function KbImportAccess({ userRole, email, refreshRole, ...tool }: KbImportAccessProps) {
  const [mode, setMode] = useState<Mode>(() =>
    !tool.serverHoldsPrivateKey ? 'own-key' : mayUseServerKey(userRole) ? 'server' : 'no-access',
  );
  const modeRef = useRef(mode);
  const chose = useRef(false);
  // A role given since sign-in, once the session is fresh: the server's key, without signing out.
  const operator = mayUseServerKey(userRole);
  useEffect(() => {
    if (operator && tool.serverHoldsPrivateKey && modeRef.current === 'no-access') setMode('server');
  }, [operator, tool.serverHoldsPrivateKey]);
  useEffect(() => {
    modeRef.current = mode;
    // The button that was chosen is gone: keyboard users continue at the key field.
    if (mode === 'own-key' && chose.current) document.getElementById('kb-api-key')?.focus();
  }, [mode]);

  const baseFetch = tool.fetch;
  const proxyBaseUrl = tool.proxyBaseUrl;
  const guardedFetch = useCallback<typeof fetch>(
    async (input, init) => {
      const response = await (baseFetch ? baseFetch(input, init) : fetch(input, init));
      if (response.status === 403 && urlOf(input).startsWith(proxyBaseUrl)) {
        const body = (await response
          .clone()
          .json()
          .catch(() => null)) as { error?: unknown } | null;
        // Late answers to a tool already left behind change nothing.
        if (body?.error === 'operator_required' && modeRef.current === 'server') setMode('no-access');
      }
      return response;
    },
    [baseFetch, proxyBaseUrl],
  );

  if (mode === 'no-access')
    return (
      <NoAccess
        providerName={tool.providerName}
        email={email}
        {...(refreshRole && {
          onCheckAgain: async () => {
            const granted = mayUseServerKey(await refreshRole());
            if (granted && tool.serverHoldsPrivateKey) setMode('server');
            return granted;
          },
        })}
        onUseOwnKey={() => {
          chose.current = true;
          setMode('own-key');
        }}
      />
    );
  // Keyed by mode: the tool's key setting and controller start afresh in the other mode.
  return (
    <KbImportTool
      key={mode}
      {...tool}
      serverHoldsPrivateKey={mode === 'server'}
      fetch={mode === 'server' ? guardedFetch : baseFetch}
    />
  );
}
