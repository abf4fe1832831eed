// A starter document for each landing page's assistant of the embedded provider, so that out of the
// box a first question gets a real answer instead of "I have no documents to answer from". Made from
// the site's configuration (site.config.json: the owner's title and domain, each page's roles), put
// on the provider as an operator would (a file, a query tool, the tool on the assistant), once per
// assistant: app_settings remembers it, so an owner who removes or replaces it is never overridden,
// and with several instances on one database only one seeds. The KB Import page says how to replace it.
import type { Db } from '@engage/db';
import { dataOf, fileUpload, type VapiClient, type VapiRequestBody } from '@engage/vapi-client';
import type { Config } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';

export type LandingPage = 'index' | 'ediscovery' | 'onboarding';

/** What each page's assistant is there for, in the words the landing pages use. */
const PAGE_PURPOSE: Record<LandingPage, string> = {
  index: 'the personal page, speaking for the site owner',
  ediscovery: 'the Sales Engineer page, for the eDiscovery platform',
  onboarding: 'the Project Onboarding page, for new team members',
};

/** The starter document's file name: the KB Import page and the docs name it. */
export const starterFileName = (page: LandingPage) => `starter-${page}.md`;

/** A short Markdown document from the site's configuration; its title is what answers cite. */
export function starterDocument(
  config: Pick<Config, 'siteTitle' | 'ownerDomain' | 'landingRoles'>,
  page: LandingPage,
) {
  const roles = config.landingRoles[page];
  const lines = [
    `# About ${config.siteTitle}`,
    '',
    `${config.siteTitle} is the site of ${config.ownerDomain}. This assistant answers on ${PAGE_PURPOSE[page]}.`,
    '',
    '## What I can talk about',
    '',
    roles.length
      ? `The roles and topics of this page: ${roles.join(', ')}.`
      : 'The topics of this page, as its owner describes them.',
    '',
    '## Where my answers come from',
    '',
    `My answers come from the documents ${config.ownerDomain} gives me. This is a starter document: the owner replaces it with their own on the KB Import page.`,
    '',
  ];
  return lines.join('\n');
}

const settingKey = (assistantId: string) => `starter_document:${assistantId}`;

/** Whether an assistant already has knowledge of any kind (its owner set it up): then it is left alone. */
function hasTools(assistant: { model?: unknown }): boolean {
  const model = (assistant.model ?? {}) as { toolIds?: unknown; tools?: unknown };
  return (
    (Array.isArray(model.toolIds) && model.toolIds.length > 0) ||
    (Array.isArray(model.tools) && model.tools.length > 0)
  );
}

export interface StarterDeps {
  db: Db;
  client: VapiClient;
  config: Pick<
    Config,
    | 'siteTitle'
    | 'ownerDomain'
    | 'landingRoles'
    | 'ASSISTANT_ID_INDEX'
    | 'ASSISTANT_ID_EDISCOVERY'
    | 'ASSISTANT_ID_ONBOARDING'
  >;
  logger: Logger;
}

async function seedOne(deps: StarterDeps, page: LandingPage, assistantId: string): Promise<boolean> {
  const { db, client } = deps;
  // Claimed first: another instance (or a later start) finds the claim and does nothing.
  const claimed = await db.query(
    `insert into app_settings (key, value) values ($1, $2::jsonb) on conflict (key) do nothing returning key`,
    [settingKey(assistantId), JSON.stringify({ state: 'claimed' })],
  );
  if (claimed.rows.length === 0) return false;
  try {
    const assistant = await dataOf(client.GET('/assistant/{id}', { params: { path: { id: assistantId } } }));
    if (hasTools(assistant)) return false;
    const body = starterDocument(deps.config, page);
    const file = await dataOf(
      client.POST('/file', fileUpload(new File([body], starterFileName(page), { type: 'text/markdown' }))),
    );
    const toolBody = {
      type: 'query',
      function: { name: 'starter_documents' },
      knowledgeBases: [
        {
          provider: 'google',
          name: 'starter',
          description: `About ${deps.config.siteTitle}`,
          fileIds: [file.id],
        },
      ],
      // The provider's own documentation sends `function`; its OpenAPI document leaves it out.
    } as VapiRequestBody<'/tool', 'post'>;
    const tool = await dataOf(client.POST('/tool', { body: toolBody }));
    await client.PATCH('/assistant/{id}', {
      params: { path: { id: assistantId } },
      body: { model: { ...assistant.model, toolIds: [tool.id] } } as VapiRequestBody<
        '/assistant/{id}',
        'patch'
      >,
    });
    await db.query(`update app_settings set value = $2::jsonb, updated_at = now() where key = $1`, [
      settingKey(assistantId),
      JSON.stringify({ state: 'seeded', fileId: file.id, toolId: tool.id }),
    ]);
    return true;
  } catch (error) {
    // Given back, so the next start tries again.
    await db.query('delete from app_settings where key = $1', [settingKey(assistantId)]);
    throw error;
  }
}

/** Seeds what is missing; never throws (a start goes on without starter documents). */
export async function seedStarterDocuments(deps: StarterDeps): Promise<void> {
  const ids: Record<LandingPage, string> = {
    index: deps.config.ASSISTANT_ID_INDEX,
    ediscovery: deps.config.ASSISTANT_ID_EDISCOVERY,
    onboarding: deps.config.ASSISTANT_ID_ONBOARDING,
  };
  for (const page of Object.keys(ids) as LandingPage[]) {
    try {
      if (await seedOne(deps, page, ids[page]))
        deps.logger.info('gave an assistant its starter document', { assistant: ids[page] });
    } catch (error) {
      deps.logger.warn('could not give an assistant its starter document', {
        assistant: ids[page],
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
