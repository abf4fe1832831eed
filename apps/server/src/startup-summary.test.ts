import { describe, expect, it } from 'vitest';
import { parseConfig } from './platform/config.js';
import { boxed, DOCS_LINE, smtpServer, startupLines } from './startup-summary.js';

const facts = { origin: 'https://engage.example', outboxToken: 'tok_en-1' };

describe('startupLines', () => {
  it('prints the outbox URL on the configured origin with its token, and the bootstrap admin', () => {
    expect(startupLines(parseConfig({ ADMIN_PASSWORD: 'secret pw 1' }), facts)).toEqual([
      'Engage is running at https://engage.example',
      'Mail outbox: https://engage.example/_mail?token=tok_en-1',
      'Bootstrap admin (ADMIN_EMAILS): admin@example.com',
      DOCS_LINE,
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
      DOCS_LINE,
    ]);
    expect(lines.join('\n')).not.toMatch(/hunter2|mailer|tok_en/);
    expect(smtpServer('smtp://broken host')).toBe('the SMTP_URL server');
  });

  it('says the hosted service sends mail, with no bootstrap admin of ours', () => {
    const config = parseConfig({ SUPABASE_URL: 'https://p.supabase.co', SUPABASE_ANON_KEY: 'anon' });
    expect(startupLines(config, facts)).toEqual([
      'Engage is running at https://engage.example',
      'Mail is sent by the hosted auth service (SUPABASE_URL).',
      DOCS_LINE,
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

  it('ends with a generated admin password in a frame that says it will not be shown again', () => {
    const lines = startupLines(parseConfig({}), {
      ...facts,
      generatedAdmin: { emails: ['admin@example.com'], password: 'pxArIH3HgMPABYx4' },
    });
    const frame = lines.slice(-6);
    expect(frame).toEqual(
      boxed([
        'Admin sign-in: admin@example.com',
        'One-time password: pxArIH3HgMPABYx4',
        'It will not be shown again. Sign in and change it,',
        'or set ADMIN_PASSWORD before the first start.',
      ]),
    );
    expect(new Set(frame.map((line) => line.length)).size).toBe(1);
    expect(frame[0]).toMatch(/^\+-+\+$/);
    expect(lines.indexOf(DOCS_LINE)).toBe(lines.length - 7);
    // Without one, nothing is framed and no password is named.
    expect(startupLines(parseConfig({}), facts).join('\n')).not.toMatch(/password|\+--/i);
  });
});
