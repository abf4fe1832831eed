/**
 * Paths a Supabase project's gateway lets through without an apikey (the self-hosted Kong routes
 * `auth-v1-open*`): /verify (the mail link a bare browser opens, and verifyOtp), the OAuth /callback
 * and /authorize a browser is sent to, the JWKS and SAML metadata, plus health. Here a missing apikey
 * is accepted everywhere, as GoTrue accepts it; on these paths even a wrong one is not looked at.
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
