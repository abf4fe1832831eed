import { describe, expect, it } from 'vitest';
import { parseConfig } from '../platform/config.js';
import { buildPublicConfig, publicConfigRoute } from './public-config.js';

describe('/config.json assistants', () => {
  it("defaults to the emulator's seeded assistants", async () => {
    const app = publicConfigRoute(() => buildPublicConfig(parseConfig({})));
    const response = await app.request('/config.json');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { assistants: unknown };
    expect(body.assistants).toEqual({
      index: 'asst_index',
      ediscovery: 'asst_ediscovery',
      onboarding: 'asst_onboarding',
    });
  });

  it('takes each landing page assistant from its environment variable', () => {
    const config = parseConfig({
      ASSISTANT_ID_INDEX: 'a1',
      ASSISTANT_ID_EDISCOVERY: 'b2',
      ASSISTANT_ID_ONBOARDING: 'c3',
    });
    expect(buildPublicConfig(config).assistants).toEqual({ index: 'a1', ediscovery: 'b2', onboarding: 'c3' });
  });

  it('treats a blank assistant id as unset', () => {
    expect(buildPublicConfig(parseConfig({ ASSISTANT_ID_INDEX: '' })).assistants.index).toBe('asst_index');
  });
});

describe('/config.json answers by mail', () => {
  it('offers them where a mail can reach the visitor: the outbox, or SMTP_URL', () => {
    expect(buildPublicConfig(parseConfig({})).answerByMail).toEqual({ keepDays: 30 });
    expect(buildPublicConfig(parseConfig({ EMULATOR_CONVERSATION_DAYS: '7' })).answerByMail).toEqual({
      keepDays: 7,
    });
    const hosted = { SUPABASE_URL: 'https://project.supabase.co', SUPABASE_ANON_KEY: 'anon' };
    expect(buildPublicConfig(parseConfig(hosted)).answerByMail).toBeUndefined();
    expect(
      buildPublicConfig(parseConfig({ ...hosted, SMTP_URL: 'smtp://mail.example:587' })).answerByMail,
    ).toEqual({ keepDays: 30 });
  });
});
