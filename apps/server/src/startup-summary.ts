// What `npm start` tells the operator: its URL, where mail goes, who the bootstrap admin is, where
// the docs are, and last, once, the generated admin password.
import { outboxUrl } from './auth/outbox/access.js';
import type { Config } from './platform/config.js';
import type { GeneratedAdmin } from './startup.js';

/** SMTP_URL without its credentials, path or query: `smtp://host:port`. */
export function smtpServer(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'the SMTP_URL server';
  }
}

export interface StartupFacts {
  /** The configured public origin (platform/public-origin.ts), once listening. */
  origin: string;
  /** Where this process listens (server.url): shown too when PUBLIC_URL names another address. */
  listening?: string;
  /** The outbox token, when mail is kept in the outbox. */
  outboxToken: string | null;
  /** Admin accounts this start created with a generated password. */
  generatedAdmin?: GeneratedAdmin | null;
}

/** Where an operator reads on: shipped with the code, so they are there offline too. */
export const DOCS_LINE = 'Docs: docs/operations.md (running Engage), docs/configuration.md (settings)';

/** Lines in an ASCII frame, so the one thing not shown again stands out of the output above it. */
export function boxed(lines: string[]): string[] {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = `+${'-'.repeat(width + 2)}+`;
  return [rule, ...lines.map((line) => `| ${line.padEnd(width)} |`), rule];
}

/**
 * The lines printed once at start (to the terminal, never the structured log). The URL is the public
 * origin, the one mail links and the outbox use (printing the listen address, 127.0.0.1,
 * beside links to localhost sent an invited user to another origin, signed in where they were not
 * looking). The outbox URL carries its token: this is the one place it is shown, as is a generated
 * admin password (never an ADMIN_PASSWORD that was set). No SMTP credential is ever printed.
 */
export function startupLines(config: Config, facts: StartupFacts): string[] {
  const lines: string[] = [`Engage is running at ${facts.origin}`];
  // Behind a proxy the public address is not this process's: health checks and probes need the latter.
  if (config.PUBLIC_URL && facts.listening) lines.push(`Listening on ${facts.listening}`);
  if (!config.embeddedAuth) lines.push('Mail is sent by the hosted auth service (SUPABASE_URL).');
  else if (config.SMTP_URL) lines.push(`Mail is sent through ${smtpServer(config.SMTP_URL)}.`);
  else if (facts.outboxToken) lines.push(`Mail outbox: ${outboxUrl(facts.origin, facts.outboxToken)}`);
  if (config.embeddedAuth && config.ADMIN_EMAILS.length)
    lines.push(
      `Bootstrap admin${config.ADMIN_EMAILS.length === 1 ? '' : 's'} (ADMIN_EMAILS): ${config.ADMIN_EMAILS.join(', ')}`,
    );
  lines.push(DOCS_LINE);
  const admin = facts.generatedAdmin;
  if (admin)
    lines.push(
      ...boxed([
        `Admin sign-in: ${admin.emails.join(', ')}`,
        `One-time password: ${admin.password}`,
        'It will not be shown again. Sign in and change it,',
        'or set ADMIN_PASSWORD before the first start.',
      ]),
    );
  return lines;
}
