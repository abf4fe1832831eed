// What each environment variable the server reads does, for docs/configuration.md (written by
// `npm run docs:config`, checked by config-docs.test.ts): every variable of the schema is here once.

export interface ConfigDoc {
  /** The variables this row describes (several when they go together). */
  vars: readonly string[];
  /** The default as a reader should see it ("none" when unset means off or not used). */
  default: string;
  /** What it does, in markdown. */
  text: string;
}

export const CONFIG_DOCS: readonly ConfigDoc[] = [
  { vars: ['PORT'], default: '8787', text: 'the one port' },
  { vars: ['HOST'], default: '127.0.0.1', text: 'the interface to listen on (`0.0.0.0` for all)' },
  {
    vars: ['PUBLIC_URL'],
    default: 'the listen address (`http://localhost:PORT` on loopback)',
    text: "the site's public address: links in mail, the TOTP issuer and the tokens' `iss` (`<PUBLIC_URL>/auth/v1`), never taken from a request's `Host` or `X-Forwarded-*`; required when `HOST` is not a loopback address",
  },
  {
    vars: ['DATA_DIR'],
    default: '`.data`',
    text: "PGlite database (the emulator's uploaded files included) and generated keys; created 0700, its files 0600; an existing one open to other users gets a warning naming `chmod 700`",
  },
  {
    vars: ['DATABASE_URL'],
    default: 'none',
    text: 'PostgreSQL instead of PGlite; the generated keys below then live in the database, shared by every instance (docs/operations.md, "Running several instances")',
  },
  {
    vars: ['ADMIN_EMAILS'],
    default: '`admin@example.com`',
    text: 'comma list; these accounts get the admin role',
  },
  {
    vars: ['OPERATOR_EMAILS'],
    default: 'none',
    text: "comma list; at every start (embedded auth) these accounts, once their address is confirmed, get the operator role (the server's provider key); none is created, an admin is never demoted, an address in both lists is an admin",
  },
  {
    vars: ['ADMIN_PASSWORD'],
    default: 'random, printed once',
    text: 'password of the bootstrap admin on an empty embedded database',
  },
  {
    vars: ['SUPABASE_URL', 'SUPABASE_ANON_KEY', 'SUPABASE_SERVICE_ROLE_KEY'],
    default: 'none',
    text: 'hosted Supabase instead of the embedded auth',
  },
  {
    vars: ['VAPI_API_URL', 'VAPI_PUBLIC_KEY', 'VAPI_PRIVATE_KEY'],
    default: 'embedded emulator',
    text: 'the real provider',
  },
  {
    vars: ['UNANSWERED_PHRASES'],
    default: 'the built-in list (packages/http-contract/src/unanswered.ts)',
    text: 'phrases, separated by `|`, that mark an assistant\'s reply as "could not answer" on `/conversations` (at most 50, 200 characters each)',
  },
  {
    vars: ['AUTH_ANON_KEY', 'AUTH_SERVICE_ROLE_KEY'],
    default: 'generated, kept in DATA_DIR',
    text: "the embedded auth's keys",
  },
  {
    vars: ['AUTH_REFRESH_REUSE_INTERVAL'],
    default: '10',
    text: 'seconds a rotated refresh token may still be reused',
  },
  {
    vars: ['AUTH_RATE_LIMIT_TOKEN', 'AUTH_RATE_LIMIT_SIGNUP', 'AUTH_RATE_LIMIT_VERIFY'],
    default: '150, 30, 30',
    text: 'sign-in/refresh, sign-up/recover and email-link requests per 5 minutes per client address (IPv6: per /64; burst 30); 0 turns one off. The per-account guess limits are fixed (docs/security.md)',
  },
  {
    vars: ['AUTH_AUTOCONFIRM'],
    default: 'false',
    text: "GoTrue's `MAILER_AUTOCONFIRM`: sign-ups are confirmed at once and `POST /auth/v1/signup` returns a session; not with `OPERATOR_EMAILS` (start-up stops: autoconfirm proves no mailbox)",
  },
  {
    vars: ['AUTH_WEBAUTHN_RP_ORIGINS'],
    default: 'none',
    text: "GoTrue's `WEBAUTHN_RP_ORIGINS`: comma list of origins besides the public origin that may use passkeys and security keys for the same relying party (the public origin's host name), e.g. the site under `www.`; each must be on that host name or under it",
  },
  {
    vars: ['AUTH_SECURE_PASSWORD_CHANGE'],
    default: 'false',
    text: "GoTrue's reauthentication rule: a password change from a session older than 24 hours needs the nonce mailed by `GET /auth/v1/reauthenticate`",
  },
  {
    vars: ['AUTH_PASSWORD_CHANGE_NEEDS_CURRENT'],
    default: 'true',
    text: "GoTrue's `UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD`: `updateUser({ password, current_password })` sets a password only with the current one (400 `current_password_required` / `current_password_mismatch`; wrong ones count against the sign-in guess limits), except from a reset link's session or for an account that has no password yet",
  },
  {
    vars: ['AUTH_ANONYMOUS'],
    default: 'false',
    text: 'GoTrue\'s anonymous sign-ins: `signInAnonymously()` gives a session whose user has `is_anonymous: true` and no address; off, it answers GoTrue\'s 422 `anonymous_provider_disabled` "Anonymous sign-ins are disabled". An anonymous user becomes a normal account with `updateUser({ email })` (with `AUTH_AUTOCONFIRM` at once, otherwise through the mailed link), keeping its id. It is never an admin or operator, is not listed or counted in the dashboard, and cannot enroll MFA',
  },
  {
    vars: ['AUTH_RATE_LIMIT_ANONYMOUS'],
    default: '30',
    text: 'anonymous sign-ins per hour per client address (IPv6: per /64); 0 turns the limit off',
  },
  {
    vars: ['AUTH_ANONYMOUS_MAX_USERS'],
    default: '10000',
    text: 'at most this many anonymous users at once; past it anonymous sign-ins get 429',
  },
  {
    vars: ['AUTH_ANONYMOUS_RETENTION_DAYS'],
    default: '30',
    text: 'anonymous users that never added an address are deleted (with their sessions) this many days after they were created: at start, then hourly, and at each anonymous sign-in',
  },
  {
    vars: ['ADMIN_REQUIRE_MFA'],
    default: 'false',
    text: "true: an admin without a verified authenticator app gets 403 `mfa_enrollment_required` from `/api/admin/*`, and the site sends them to their profile's two-factor section before the dashboard. Whatever this says, an account with a verified factor needs a session that used it (aal2) for `/api/admin/*`, `/api/provider/*` and `/api/calls/websocket` (403 `mfa_required`)",
  },
  {
    vars: ['EMULATOR_PUBLIC_KEY', 'EMULATOR_PRIVATE_KEY'],
    default: 'generated, kept in DATA_DIR',
    text: "the emulator's keys",
  },
  {
    vars: ['ASSISTANT_ID_INDEX', 'ASSISTANT_ID_EDISCOVERY', 'ASSISTANT_ID_ONBOARDING'],
    default: "`asst_index`, `asst_ediscovery`, `asst_onboarding` (the emulator's seeded assistants)",
    text: "the provider assistant each landing page's voice widget calls",
  },
  {
    vars: ['SMTP_URL'],
    default: 'none',
    text: 'real mail instead of the outbox at `/_mail` (which needs its token: `npm start` prints the outbox URL with it; `npm run keys` shows `mailOutboxToken`)',
  },
  {
    vars: ['SITE_TITLE', 'OWNER_DOMAIN'],
    default: 'from `site.config.json`',
    text: "the owner's title and the personal page's title. `site.config.json` also holds each landing page's `roles` (the phrases the page lists, which its assistant's starter document names); changing them needs a rebuild of the site",
  },
  { vars: ['SITE_DIR'], default: '`apps/site/dist`', text: 'where the built site is served from' },
  {
    vars: ['BACKUP_DIR'],
    default: 'none',
    text: 'scheduled backups of the embedded database are written here (not with `DATABASE_URL`)',
  },
  {
    vars: ['BACKUP_EVERY'],
    default: '24h (with `BACKUP_DIR`)',
    text: 'how often: `30m`, `24h`, `7d`; the first is due that long after the newest in `BACKUP_DIR`',
  },
  {
    vars: ['BACKUP_KEEP'],
    default: '7',
    text: 'how many scheduled backups are kept; older ones are deleted',
  },
  { vars: ['LOG_LEVEL'], default: 'info', text: 'silent, error, warn, info or debug' },
  {
    vars: ['WEBSOCKET_CALL_ASSISTANTS'],
    default: 'the three `ASSISTANT_ID_*`',
    text: "comma list of assistants `POST /api/calls/websocket` may start with the server's private key; `*` for any",
  },
  {
    vars: ['WEBSOCKET_CALLS_ANONYMOUS'],
    default: 'true',
    text: "false: only signed-in users may start WebSocket calls; true: visitors may, of the public page's assistant (`ASSISTANT_ID_INDEX`) only",
  },
  {
    vars: ['WEBSOCKET_CALLS_PER_MINUTE'],
    default: '10',
    text: 'WebSocket calls each signed-in user (or each address, for visitors) may start per minute',
  },
  {
    vars: ['CALL_ROOMS_MAX'],
    default: '50',
    text: "the embedded emulator's call rooms open at once; one more is refused with close code 1013 and a JSON reason",
  },
  {
    vars: ['CALL_ROOMS_PER_ADDRESS'],
    default: '5',
    text: 'call rooms one client address holds at once; one more is refused with 1013 `address_room_limit`',
  },
  {
    vars: ['EMULATOR_CALLS_PER_MINUTE_PER_ADDRESS'],
    default: '20',
    text: '`POST /provider/call/web` (the public key) per client address per minute; 429 with `Retry-After` past it',
  },
  {
    vars: ['EMULATOR_CHATS_PER_MINUTE_PER_ADDRESS'],
    default: '60',
    text: "`POST /provider/chat/web` (the public key: the widget's text chat) per client address per minute; 429 with `Retry-After` past it",
  },
  {
    vars: ['EMULATOR_CONVERSATION_DAYS'],
    default: '30',
    text: 'Days the embedded provider keeps calls and chats with their messages (1–3650); older ones are pruned at start and every hour, and when a call is stored',
  },
  {
    vars: ['VISITOR_ADDRESS_DAYS'],
    default: '30',
    text: "with the real provider: days a visitor's address, left for the owner's answer by mail, is kept (1–3650); with the embedded provider it is kept as long as its conversation (`EMULATOR_CONVERSATION_DAYS`). Deleting the conversation through Engage deletes it at once",
  },
  {
    vars: ['ANSWER_REQUESTS_PER_EMAIL_PER_DAY'],
    default: '3',
    text: 'requests for an answer by mail (`POST /api/answer-requests`) naming one visitor address, per day, across conversations; 429 with `Retry-After` past it, so nobody can use the site to mail a third party repeatedly',
  },
  {
    vars: ['ANSWER_REQUESTS_PER_CLIENT_PER_HOUR'],
    default: '10',
    text: "requests for an answer by mail per client address (the socket's) per hour; 429 with `Retry-After` past it",
  },
  {
    vars: ['EMBED_ORIGINS'],
    default: "none (only Engage's own pages)",
    text: "comma list of exact origins (`https://shop.example`) whose pages may run `<engage-widget>`: CORS on `/config.json`, the public key's `call/web` and `chat/web` and the WebSocket call start; any other site gets 403 `origin_not_allowed`, also on the call room's WebSocket upgrade (programs that send no Origin, like the voice SDK in Node, are not affected). With the embedded provider they are also the public key's `allowedOrigins` (docs/embedding.md)",
  },
  {
    vars: ['MAX_JSON_BYTES'],
    default: '1048576 (1 MiB)',
    text: 'largest request body on every route but file uploads; larger (declared or chunked) gets 413 `payload_too_large`',
  },
  {
    vars: ['VAPI_MEMBERS_PUBLIC_KEY'],
    default: 'none (the embedded emulator makes its own)',
    text: "with the real provider: the public key of the sign-in-only pages (`/ediscovery`, `/onboarding`), given by `/config.json` only to a request with a valid session; `VAPI_PUBLIC_KEY` is then the public page's only (docs/provider.md)",
  },
  {
    vars: ['EMULATOR_MEMBERS_PUBLIC_KEY'],
    default: 'generated, kept in DATA_DIR',
    text: "the emulator's members key, restricted to `ASSISTANT_ID_EDISCOVERY` and `ASSISTANT_ID_ONBOARDING`; its everyone key (`EMULATOR_PUBLIC_KEY`) to `ASSISTANT_ID_INDEX`; neither runs inline assistants",
  },
  {
    vars: ['AUTH_SIGNING_KEY'],
    default: 'generated, kept in DATA_DIR (the database with `DATABASE_URL`)',
    text: 'the embedded auth\'s ES256 signing key as a private JWK, one line of JSON (`{"kty":"EC","crv":"P-256","x":…,"y":…,"d":…}`); the anon and service-role keys are then signed with it unless `AUTH_ANON_KEY` / `AUTH_SERVICE_ROLE_KEY` are set',
  },
  {
    vars: ['MAIL_OUTBOX_TOKEN'],
    default: 'generated, kept in DATA_DIR (the database with `DATABASE_URL`)',
    text: "the `/_mail` outbox's token, 32 to 256 characters",
  },
  {
    vars: ['METRICS_TOKEN'],
    default: 'none: `/metrics` is off',
    text: "turns on `GET /metrics` (Prometheus' text format, this instance's figures) for `Authorization: Bearer <METRICS_TOKEN>` only, 32 to 256 characters; docs/operations.md has a scrape configuration",
  },
];

/** docs/configuration.md: an introduction and one table row per entry of CONFIG_DOCS. */
export function configurationMarkdown(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const rows = CONFIG_DOCS.map(
    (d) => `| ${d.vars.map((v) => `\`${v}\``).join(', ')} | ${cell(d.default)} | ${cell(d.text)} |`,
  );
  return [
    '# Configuration',
    '',
    '<!-- Written by `npm run docs:config` from apps/server/src/platform/config-docs.ts; edit that file, not this one. -->',
    '',
    'The server reads these environment variables once at start (`apps/server/src/platform/config.ts`) and checks',
    'them: a bad value stops start-up with a message naming the variable. Every one is optional; the',
    'defaults run the whole product on one machine with embedded services.',
    '',
    '| variable | default | effect |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
