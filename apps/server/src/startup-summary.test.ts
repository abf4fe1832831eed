import { describe, expect, it } from 'vitest';
import { parseConfig } from './platform/config.js';
import { smtpServer, startupLines } from './startup-summary.js';

const facts = { origin: 'https://engage.example', outboxToken: 'tok_en-1' };

describe('startupLines', () => {
  it('prints the outbox URL on the configured origin with its token, and the bootstrap admin', () => {
    expect(startupLines(parseConfig({ ADMIN_PASSWORD: 'secret pw 1' }), facts)).toEqual([
      'Engage is running at https://engage.example',
      'Mail outbox: https://engage.example/_mail?token=tok_en-1',
      'Bootstrap admin (ADMIN_EMAILS): admin@example.com',
    ]);
  });

  it('names the SMTP server without its credentials, and no outbox', () => {
    const config = parseConfig({
      SMTP_URL: 'smtps://mailer:hunter2@smtp.example.com:465/?pool=true',
      ADMIN_EMAILS: 'a@x.io, b@x.io',
    });
    const lines = startupLines(config, facts);
    expect(lines).toEqual([
      'Engage is running at https://engage.example',
      'Mail is sent through smtps://smtp.example.com:465.',
      'Bootstrap admins (ADMIN_EMAILS): a@x.io, b@x.io',
    ]);
    expect(lines.join('\n')).not.toMatch(/hunter2|mailer|tok_en/);
    expect(smtpServer('smtp://broken host')).toBe('the SMTP_URL server');
  });

  it('says the hosted service sends mail, with no bootstrap admin of ours', () => {
    const config = parseConfig({ SUPABASE_URL: 'https://p.supabase.co', SUPABASE_ANON_KEY: 'anon' });
    expect(startupLines(config, facts)).toEqual([
      'Engage is running at https://engage.example',
      'Mail is sent by the hosted auth service (SUPABASE_URL).',
    ]);
  });

  it('also names the listen address when PUBLIC_URL is another one (behind a proxy)', () => {
    const config = parseConfig({ PUBLIC_URL: 'https://engage.example', ADMIN_EMAILS: '' });
    const lines = startupLines(config, { ...facts, listening: 'http://127.0.0.1:8787' });
    expect(lines.slice(0, 2)).toEqual([
      'Engage is running at https://engage.example',
      'Listening on http://127.0.0.1:8787',
    ]);
    expect(
      startupLines(parseConfig({}), { ...facts, listening: 'http://127.0.0.1:8787' }).join('\n'),
    ).not.toMatch(/Listening/);
  });
});
