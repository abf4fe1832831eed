// What `npm start` tells the operator: its URL, where mail goes and who the bootstrap admin is.
import { outboxUrl } from './auth/outbox/access.js';
import type { Config } from './platform/config.js';

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
}

/**
 * The lines printed once at start (to the terminal, never the structured log). The URL is the public
 * origin, the one mail links and the outbox use (printing the listen address, 127.0.0.1,
 * beside links to localhost sent an invited user to another origin, signed in where they were not
 * looking). The outbox URL carries its token: this is the one place it is shown. No password and no
 * SMTP credential is ever printed.
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
  return lines;
}
