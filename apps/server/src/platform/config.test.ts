import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.js';

describe('parseConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = parseConfig({}, '/srv/engage');
    expect(config.PORT).toBe(8787);
    expect(config.dataDir).toBe('/srv/engage/.data');
    expect(config.ADMIN_EMAILS).toEqual(['admin@example.com']);
    expect(config.embeddedAuth).toBe(true);
    expect(config.embeddedProvider).toBe(true);
    expect(config.EMULATOR_CONVERSATION_DAYS).toBe(30);
    expect(parseConfig({ EMULATOR_CONVERSATION_DAYS: '7' }).EMULATOR_CONVERSATION_DAYS).toBe(7);
  });

  it('treats empty strings as unset', () => {
    expect(parseConfig({ PORT: '' }).PORT).toBe(8787);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['ADMIN_EMAILS', 'not-an-email'],
    ['SUPABASE_URL', 'nope'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_PASSWORD', 'short'],
    ['ADMIN_PASSWORD', 'é'.repeat(40)], // 40 characters, 80 bytes: over the auth service's limit
    ['ADMIN_PASSWORD', 'tab\tinside'], // a control character sign-in could never send
    ['EMULATOR_CONVERSATION_DAYS', '0'],
    ['EMULATOR_CONVERSATION_DAYS', '3651'],
    ['EMULATOR_CONVERSATION_DAYS', '7.5'],
    ['EMULATOR_CONVERSATION_DAYS', '-1'],
  ])('names %s when its value %j is invalid', (name, value) => {
    expect(() => parseConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => parseConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });

  it('never echoes the value of a secret variable it refuses', () => {
    for (const [name, value] of [
      ['ADMIN_PASSWORD', 'hunter'.repeat(13)],
      ['DATABASE_URL', 'mysql://root:hunter2@db'],
      ['SMTP_URL', 'not a url hunter2'],
    ]) {
      expect(() => parseConfig({ [name as string]: value })).toThrow(new RegExp(`${name}:`));
      expect(() => parseConfig({ [name as string]: value })).not.toThrow(/hunter/);
    }
    expect(() => parseConfig({ PORT: 'abc' })).toThrow('(got "abc")');
  });

  it('requires the anon key with a hosted Supabase URL', () => {
    expect(() => parseConfig({ SUPABASE_URL: 'https://x.supabase.co' })).toThrow(/SUPABASE_ANON_KEY/);
  });

  it('stops on a non-loopback HOST without PUBLIC_URL, naming PUBLIC_URL', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'engage.example']) {
      expect(() => parseConfig({ HOST })).toThrow(ConfigError);
      expect(() => parseConfig({ HOST })).toThrow(/PUBLIC_URL: required when HOST/);
    }
    expect(parseConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://engage.example' }).HOST).toBe('0.0.0.0');
    for (const HOST of ['127.0.0.1', 'localhost', '::1', '127.0.0.2'])
      expect(parseConfig({ HOST }).PUBLIC_URL).toBeUndefined();
  });

  it('refuses OPERATOR_EMAILS with AUTH_AUTOCONFIRM=true: autoconfirm proves no mailbox', () => {
    expect(() => parseConfig({ AUTH_AUTOCONFIRM: 'true', OPERATOR_EMAILS: 'ops@example.com' })).toThrow(
      /OPERATOR_EMAILS: not with AUTH_AUTOCONFIRM=true/,
    );
    expect(() => parseConfig({ AUTH_AUTOCONFIRM: 'true' })).not.toThrow();
    expect(() => parseConfig({ OPERATOR_EMAILS: 'ops@example.com' })).not.toThrow();
  });

  it("AUTH_WEBAUTHN_RP_ORIGINS: origins on PUBLIC_URL's host name or under it, and PUBLIC_URL set", () => {
    expect(
      parseConfig({
        PUBLIC_URL: 'https://example.com',
        AUTH_WEBAUTHN_RP_ORIGINS: 'https://www.example.com, https://example.com:8443',
      }).AUTH_WEBAUTHN_RP_ORIGINS,
    ).toEqual(['https://www.example.com', 'https://example.com:8443']);
    expect(parseConfig({}).AUTH_WEBAUTHN_RP_ORIGINS).toEqual([]);
    expect(() =>
      parseConfig({ PUBLIC_URL: 'https://example.com', AUTH_WEBAUTHN_RP_ORIGINS: 'https://notexample.com' }),
    ).toThrow(/AUTH_WEBAUTHN_RP_ORIGINS: https:\/\/notexample.com not on example.com/);
    expect(() =>
      parseConfig({
        PUBLIC_URL: 'https://example.com',
        AUTH_WEBAUTHN_RP_ORIGINS: 'https://example.com/path',
      }),
    ).toThrow(/AUTH_WEBAUTHN_RP_ORIGINS:/);
    // Without PUBLIC_URL the relying party is the loopback listener's: localhost.
    expect(
      parseConfig({ AUTH_WEBAUTHN_RP_ORIGINS: 'http://localhost:5173' }).AUTH_WEBAUTHN_RP_ORIGINS,
    ).toEqual(['http://localhost:5173']);
    expect(() => parseConfig({ AUTH_WEBAUTHN_RP_ORIGINS: 'https://www.example.com' })).toThrow(
      /not on localhost/,
    );
  });

  it('parses a comma list of admin emails, lower-cased', () => {
    expect(parseConfig({ ADMIN_EMAILS: ' A@x.io, b@y.io ' }).ADMIN_EMAILS).toEqual(['a@x.io', 'b@y.io']);
  });

  it('ADMIN_REQUIRE_MFA: off by default, true or false, anything else stops start-up naming it', () => {
    expect(parseConfig({}).ADMIN_REQUIRE_MFA).toBe(false);
    expect(parseConfig({ ADMIN_REQUIRE_MFA: 'true' }).ADMIN_REQUIRE_MFA).toBe(true);
    expect(() => parseConfig({ ADMIN_REQUIRE_MFA: 'yes' })).toThrow(/ADMIN_REQUIRE_MFA/);
  });

  it('takes AUTH_SIGNING_KEY as a private P-256 JWK and refuses anything else without echoing it', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
    expect(parseConfig({ AUTH_SIGNING_KEY: jwk }).AUTH_SIGNING_KEY).toBe(jwk);
    for (const bad of [JSON.stringify(publicKey.export({ format: 'jwk' })), 'not json', '{"kty":"RSA"}']) {
      expect(() => parseConfig({ AUTH_SIGNING_KEY: bad })).toThrow(
        /AUTH_SIGNING_KEY: must be a private EC P-256/,
      );
      try {
        parseConfig({ AUTH_SIGNING_KEY: bad });
      } catch (error) {
        expect((error as Error).message).not.toContain(bad);
      }
    }
  });
});
