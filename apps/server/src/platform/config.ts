import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { envSchema, siteConfigSchema, type Env, type SiteConfig } from './config-schema.js';
import { isLoopbackHost, listenOrigin } from './public-origin.js';

/** The repository root: apps/server/src → ../../.. */
export const repoRoot = path.resolve(import.meta.dirname, '../../../..');

export interface Config extends Env {
  /** Absolute data directory. */
  dataDir: string;
  /** Absolute directory of the built site. */
  siteDir: string;
  siteTitle: string;
  ownerDomain: string;
  /** What each landing page lists (site.config.json `roles`). */
  landingRoles: SiteConfig['roles'];
  /** True when the embedded auth service runs (no hosted Supabase configured). */
  embeddedAuth: boolean;
  /** True when the embedded provider emulator runs (no real provider key configured). */
  embeddedProvider: boolean;
  /** Assistants POST /api/calls/websocket may start: a list, or '*' for any. */
  websocketCallAssistants: string[] | '*';
  /** Scheduled backups (BACKUP_DIR, BACKUP_EVERY defaulting to a day), or null when off. */
  backups: { dir: string; everyMs: number; keep: number } | null;
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function readSiteConfig(): z.infer<typeof siteConfigSchema> {
  const file = path.join(repoRoot, 'site.config.json');
  const fallback = {
    siteTitle: 'Engage',
    ownerDomain: 'engage.example',
    roles: { index: [], ediscovery: [], onboarding: [] },
  };
  if (!existsSync(file)) return fallback;
  const parsed = siteConfigSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new ConfigError([`site.config.json: ${parsed.error.issues[0]?.message}`]);
  return parsed.data;
}

/**
 * Parses the environment once. Empty strings count as unset, so `PORT= npm start` means the default.
 * Throws ConfigError naming every bad variable.
 */
const SECRET_VARIABLE = /PASSWORD|KEY|SECRET|TOKEN|^DATABASE_URL$|^SMTP_URL$/;

export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        // A password, a key or a URL with credentials in it is never echoed to the terminal.
        if (SECRET_VARIABLE.test(name)) return `${name}: ${issue.message}`;
        return `${name}: ${issue.message} (got ${JSON.stringify(cleaned[name] ?? '')})`;
      }),
    );
  }
  const e = result.data;
  const problems: string[] = [];
  if (e.SUPABASE_URL && !e.SUPABASE_ANON_KEY)
    problems.push('SUPABASE_ANON_KEY: required when SUPABASE_URL is set');
  // Off loopback, strangers reach the server: mail links and token issuers need a configured address.
  if (!e.PUBLIC_URL && !isLoopbackHost(e.HOST))
    problems.push(
      `PUBLIC_URL: required when HOST (${e.HOST}) is not a loopback address; set it to the address ` +
        'visitors use (e.g. https://engage.example), which links in mail and sign-in tokens carry',
    );
  if (e.BACKUP_EVERY !== undefined && !e.BACKUP_DIR)
    problems.push('BACKUP_EVERY: set BACKUP_DIR too, the directory scheduled backups are written to');
  if (e.BACKUP_DIR && e.DATABASE_URL)
    problems.push(
      'BACKUP_DIR: scheduled backups are of the embedded database; with DATABASE_URL use pg_dump (docs/operations.md, "Backups and restore")',
    );
  if (e.AUTH_WEBAUTHN_RP_ORIGINS.length > 0) {
    // The relying party is the public origin's host name: PUBLIC_URL's, or the listen address's.
    const rpId = new URL(e.PUBLIC_URL ?? listenOrigin(e.HOST, e.PORT)).hostname;
    const outside = e.AUTH_WEBAUTHN_RP_ORIGINS.filter((origin) => {
      const host = new URL(origin).hostname;
      return host !== rpId && !host.endsWith(`.${rpId}`);
    });
    if (outside.length > 0)
      problems.push(
        `AUTH_WEBAUTHN_RP_ORIGINS: ${outside.join(', ')} not on ${rpId} or a name under it; a browser offers a passkey only to origins of its relying party (the public origin's host name)`,
      );
  }
  if (e.AUTH_AUTOCONFIRM && e.OPERATOR_EMAILS.length > 0)
    problems.push(
      "OPERATOR_EMAILS: not with AUTH_AUTOCONFIRM=true, which confirms an address without its mail being read, so whoever registered an operator's address first would be given the role; turn AUTH_AUTOCONFIRM off, or leave OPERATOR_EMAILS empty and give the role from the admin dashboard",
    );
  if (problems.length) throw new ConfigError(problems);
  const site = readSiteConfig();
  return {
    ...e,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    siteDir: e.SITE_DIR ? path.resolve(cwd, e.SITE_DIR) : path.join(repoRoot, 'apps/site/dist'),
    siteTitle: e.SITE_TITLE ?? site.siteTitle,
    ownerDomain: e.OWNER_DOMAIN ?? site.ownerDomain,
    landingRoles: site.roles,
    embeddedAuth: !e.SUPABASE_URL,
    embeddedProvider: !e.VAPI_PRIVATE_KEY,
    backups: e.BACKUP_DIR
      ? { dir: path.resolve(cwd, e.BACKUP_DIR), everyMs: e.BACKUP_EVERY ?? 86_400_000, keep: e.BACKUP_KEEP }
      : null,
    websocketCallAssistants: e.WEBSOCKET_CALL_ASSISTANTS?.includes('*')
      ? '*'
      : (e.WEBSOCKET_CALL_ASSISTANTS ?? [
          e.ASSISTANT_ID_INDEX,
          e.ASSISTANT_ID_EDISCOVERY,
          e.ASSISTANT_ID_ONBOARDING,
        ]),
  };
}

/**
 * Whether answers by mail can reach anyone: through SMTP_URL, or into the embedded auth's outbox,
 * which an operator can read. With hosted Supabase and no SMTP_URL a mail would go nowhere, so the
 * widget offers nothing and the route refuses.
 */
export const answersByMailOffered = (config: Config): boolean =>
  Boolean(config.SMTP_URL) || config.embeddedAuth;

/** Days a visitor's address (an answer by mail) is kept: as long as the embedded provider keeps conversations. */
export const visitorAddressDays = (config: Config): number =>
  config.embeddedProvider ? config.EMULATOR_CONVERSATION_DAYS : config.VISITOR_ADDRESS_DAYS;
