/**
 * Paths reachable without an apikey, as a Supabase project's gateway lets them through (the
 * self-hosted Kong routes `auth-v1-open*`): /verify (the mail link a bare browser opens, and
 * verifyOtp), the OAuth /callback and /authorize a browser is sent to, the JWKS and SAML metadata,
 * plus health. Everything else needs the anon or service key.
 */
export const OPEN_PATHS = [
  '/verify',
  '/callback',
  '/authorize',
  '/.well-known/jwks.json',
  '/sso/saml/acs',
  '/sso/saml/metadata',
  '/health',
];
export const isOpenPath = (path: string) => OPEN_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
