import { describe, expect, it } from 'vitest';
import type { PublicConfig } from '@/lib/public-config';
import siteConfig from '../../../../../site.config.json';
import { getAssistant } from './assistants';

const config: PublicConfig = {
  siteTitle: 'Jane Doe',
  ownerDomain: 'janedoe.dev',
  auth: { url: null, anonKey: 'anon', embedded: true },
  provider: { name: 'Vapi', baseUrl: null, publicKey: 'pk', serverHoldsPrivateKey: true, embedded: true },
};

describe('assistant registry', () => {
  it("titles the personal page with the owner's domain, letter by letter", () => {
    const index = getAssistant('index', config);
    expect(index.title).toBe('j a n e d o e . d e v');
    expect(index.titleText).toBe('janedoe.dev');
    expect(index.name).toBe('CTO/CIO Assistant');
    expect(index.pageName).toBe('Index');
    // The roles are the site's data: each page lists its own, in the configuration's order.
    expect(index.roles).toEqual(siteConfig.roles.index);
  });

  it('gives the sales engineer and onboarding pages their titles and roles', () => {
    const se = getAssistant('ediscovery', config);
    expect(se.title).toBe('s a l e s e n g i n e e r');
    expect(se.titleText).toBe('sales engineer');
    expect(se.pageName).toBe('EDiscovery');
    expect(se.roles).toEqual(siteConfig.roles.ediscovery);
    expect(se.background).toEqual({ kind: 'image', src: '/se.svg' });
    const onboarding = getAssistant('onboarding', config);
    expect(onboarding.title).toBe('c a s e . o n b o a r d i n g');
    expect(onboarding.titleText).toBe('case.onboarding');
    // The emulator seeds it under the same name (packages/vapi-emulator/src/seed.ts).
    expect(onboarding.name).toBe('Project Onboarding Assistant');
    expect(onboarding.roles).toEqual(siteConfig.roles.onboarding);
    expect(onboarding.background).toEqual({ kind: 'image', src: '/onboard.svg' });
  });

  it("uses the emulator's seeded assistants unless the configuration names others", () => {
    expect(getAssistant('index', config).id).toBe('asst_index');
    expect(getAssistant('onboarding', config).id).toBe('asst_onboarding');
    const configured = { ...config, assistants: { index: 'a1', ediscovery: 'b2', onboarding: ' ' } };
    expect(getAssistant('index', configured).id).toBe('a1');
    expect(getAssistant('ediscovery', configured).id).toBe('b2');
    expect(getAssistant('onboarding', configured).id).toBe('asst_onboarding');
  });

  it('tells the visitor on every page to click the engage button on the left', () => {
    for (const key of ['index', 'ediscovery', 'onboarding'] as const)
      expect(getAssistant(key, config).subtitle).toMatch(
        /click the engage button on the left to start a conversation/i,
      );
  });
});
