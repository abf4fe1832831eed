/** The three assistants of the landing pages, seeded into every new emulator database. */

/** The organisation every emulator resource belongs to. */
export const EMULATOR_ORG_ID = '6a6f7267-0000-4000-8000-656d756c6174';

export const SEEDED_ASSISTANT_IDS = {
  index: 'asst_index',
  ediscovery: 'asst_ediscovery',
  onboarding: 'asst_onboarding',
} as const;

interface Seed {
  id: string;
  orgId: string;
  data: Record<string, unknown>;
}

const seed = (id: string, name: string, firstMessage: string, system: string, voiceId: string): Seed => ({
  id,
  orgId: EMULATOR_ORG_ID,
  data: {
    name,
    firstMessage,
    model: {
      provider: 'openai',
      model: 'gpt-4o',
      temperature: 0.2,
      messages: [{ role: 'system', content: system }],
      toolIds: [],
    },
    voice: { provider: 'vapi', voiceId },
    transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en' },
  },
});

export const SEED_ASSISTANTS: readonly Seed[] = [
  seed(
    SEEDED_ASSISTANT_IDS.index,
    'CTO/CIO Assistant',
    'Hello! I can tell you about my background as a technology leader. What would you like to know?',
    'You speak for the site owner, a CTO/CIO. Answer questions about their experience, leadership and ' +
      'technology strategy briefly and truthfully. Say so when you do not know.',
    'Elliot',
  ),
  seed(
    SEEDED_ASSISTANT_IDS.ediscovery,
    'Sales Engineer Assistant',
    'Hi! I am the eDiscovery sales engineer assistant. Ask me how the platform handles legal holds, ' +
      'collection or review.',
    'You are a sales engineer for an eDiscovery platform. Explain collection, legal holds, processing, ' +
      'review and production in plain words, and offer a demo when it helps.',
    'Rohan',
  ),
  seed(
    SEEDED_ASSISTANT_IDS.onboarding,
    // The name the site gives the Project Onboarding page's assistant (apps/site features/landing).
    'Project Onboarding Assistant',
    'Welcome aboard! I can walk you through your first days. Where would you like to start?',
    'You help new team members through onboarding: accounts, tools, people to meet and first tasks. ' +
      'Be friendly and concise.',
    'Paige',
  ),
];
