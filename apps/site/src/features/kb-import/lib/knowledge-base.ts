import { isVapiApiError } from '@engage/vapi-client';
import type { ProviderApi } from '../api/provider-api';
import { DEFAULT_KB_DESCRIPTION, DEFAULT_KB_NAME, POLL_MAX_ATTEMPTS, pollDelay } from './constants';
import { functionNameProblem, toFunctionName } from './function-name';
import { messages } from './messages';
import { isLocalOnlyId, type LogLine } from './reducer';
import { sleep } from './sleep';
import type { CreatedKnowledgeBase } from './storage';
import { failureText, type KbImportStore } from './store';

type Log = (message: string, level?: LogLine['level']) => void;

/** A step that failed, with what to tell the user. */
export class KnowledgeBaseStepError extends Error {
  constructor(
    readonly step: 'tool' | 'v2' | 'indexing' | 'assistant',
    readonly cause: unknown,
  ) {
    super(step);
    this.name = 'KnowledgeBaseStepError';
  }
}

/**
 * POST /tool with the query tool and its function name (checked beforehand: function-name.ts). A
 * refusal is reported as it is: a tool is never created without the name the user gave it.
 */
export async function createQueryTool(
  api: ProviderApi,
  input: { name: string; description: string; functionName: string; fileIds: string[] },
  log: Log,
): Promise<string> {
  const knowledgeBases = [
    { provider: 'google' as const, name: input.name, description: input.description, fileIds: input.fileIds },
  ];
  try {
    return (
      await api.createQueryTool({ type: 'query', function: { name: input.functionName }, knowledgeBases })
    ).id;
  } catch (error) {
    if (isVapiApiError(error) && error.status === 400)
      log(`The provider refused the query tool: ${error.bodyText}`, 'error');
    throw new KnowledgeBaseStepError('tool', error);
  }
}

export interface IndexingProgress {
  settled: number;
  total: number;
}

/**
 * Creates a v2 knowledge base, attaches every file, and waits (on the polling schedule) until each
 * is `ready` or `failed` and the base has its query tool. Resolves with the base's id, its tool id and
 * how many files failed to index.
 */
export async function createKnowledgeBaseV2(
  api: ProviderApi,
  input: { name: string; description: string; fileIds: string[] },
  onProgress: (p: IndexingProgress) => void,
  log: Log,
): Promise<{ knowledgeBaseId: string; toolId: string; failed: number }> {
  let id: string;
  try {
    id = (await api.createKnowledgeBaseV2({ name: input.name.slice(0, 80), description: input.description }))
      .id;
    log(`Created v2 knowledge base ${id}; attaching ${input.fileIds.length} file(s)`);
    for (const fileId of input.fileIds) await api.attachFileToKnowledgeBaseV2(id, fileId);
  } catch (error) {
    throw new KnowledgeBaseStepError('v2', error);
  }
  const total = input.fileIds.length;
  onProgress({ settled: 0, total });
  for (let attempt = 0; attempt < POLL_MAX_ATTEMPTS; attempt++) {
    await sleep(pollDelay(attempt));
    let view;
    try {
      view = await api.getKnowledgeBaseV2(id);
    } catch (error) {
      if (isVapiApiError(error) && (error.status === 429 || error.status >= 500)) {
        log(`Status check of knowledge base ${id} failed (${error.status}); trying again`, 'error');
        continue;
      }
      throw new KnowledgeBaseStepError('indexing', error);
    }
    const settled = view.files.filter((f) => f.status === 'ready' || f.status === 'failed');
    onProgress({ settled: settled.length, total });
    if (settled.length >= total && view.toolId) {
      const failed = view.files.filter((f) => f.status === 'failed').length;
      if (failed === total)
        throw new KnowledgeBaseStepError('indexing', new Error('No file could be indexed'));
      return { knowledgeBaseId: id, toolId: view.toolId, failed };
    }
  }
  throw new KnowledgeBaseStepError('indexing', new Error('Indexing did not finish in time'));
}

/**
 * Attaches a tool the careful way: read the assistant, add the id to model.toolIds once, send the
 * whole model back (a PATCH replaces the model: anything left out would be lost).
 * Resolves with the assistant's name.
 */
export async function attachToolToAssistant(
  api: ProviderApi,
  assistantId: string,
  toolId: string,
): Promise<string> {
  try {
    const assistant = await api.getAssistant(assistantId);
    const model = assistant.model ?? {};
    const existing = Array.isArray(model.toolIds) ? model.toolIds : [];
    const toolIds = existing.includes(toolId) ? existing : [...existing, toolId];
    await api.updateAssistant(assistantId, { model: { ...model, toolIds } });
    return assistant.name;
  } catch (error) {
    throw new KnowledgeBaseStepError('assistant', error);
  }
}

export interface KnowledgeBaseInput {
  name: string;
  description: string;
  assistantId: string;
  assistantName?: string;
  /** 'query-tool' (default) or 'v2' (a v2 knowledge base and the tool it comes with). */
  kind?: 'query-tool' | 'v2';
}

/** Creation of the knowledge base from the done files, busy flag, messages and the created list. */
/**
 * The files still at the provider: one deleted meanwhile (elsewhere, or in another tab) would make
 * the provider refuse the whole knowledge base, so it leaves the list, said in the log. When the
 * list cannot be read, the files are taken as they are and the provider has the last word.
 */
async function stillAtProvider<F extends { id: string; name: string }>(
  api: ProviderApi,
  files: F[],
  store: KbImportStore,
): Promise<F[]> {
  let listed: Set<string>;
  try {
    listed = new Set((await api.listFiles()).map((f) => f.id));
  } catch {
    return files;
  }
  const gone = files.filter((f) => !listed.has(f.id));
  for (const f of gone) store.dispatch({ type: 'removeRecord', id: f.id });
  if (gone.length)
    store.log(
      `Left out ${gone.length} file(s) no longer at the provider: ${gone.map((f) => f.name).join(', ')}`,
      'error',
    );
  return files.filter((f) => listed.has(f.id));
}

export class KnowledgeBaseCreator {
  readonly #store: KbImportStore;
  readonly #getApi: () => ProviderApi | null;
  readonly #now: () => number;

  constructor(store: KbImportStore, getApi: () => ProviderApi | null, now: () => number) {
    this.#store = store;
    this.#getApi = getApi;
    this.#now = now;
  }

  async create(input: KnowledgeBaseInput): Promise<CreatedKnowledgeBase | null> {
    const store = this.#store;
    if (store.getState().creating) return null;
    const api = this.#getApi();
    if (!api || !input.assistantId) {
      // Only ask for what is missing: a key held by the server is never asked for.
      store.alert(
        'destructive',
        api
          ? messages.assistantRequired
          : input.assistantId
            ? messages.keyRequired
            : messages.keyAndAssistantRequired,
      );
      return null;
    }
    const done = store.getState().uploaded.filter((f) => f.status === 'done' && !isLocalOnlyId(f.id));
    if (done.length === 0) {
      store.alert('destructive', messages.noFilesForKnowledgeBase);
      return null;
    }
    const kind = input.kind ?? 'query-tool';
    const name = input.name.trim() || DEFAULT_KB_NAME;
    const description = input.description.trim() || DEFAULT_KB_DESCRIPTION;
    const functionName = toFunctionName(name);
    const nameProblem = kind === 'query-tool' ? functionNameProblem(name) : null;
    if (nameProblem) {
      store.alert('destructive', nameProblem);
      return null;
    }
    store.dispatch({ type: 'flags', flags: { creating: true } });
    const files = await stillAtProvider(api, done, store);
    if (files.length === 0) {
      store.dispatch({ type: 'flags', flags: { creating: false } });
      store.alert('destructive', messages.noFilesForKnowledgeBase);
      return null;
    }
    const fileIds = files.map((f) => f.id);
    let toolId: string | null = null;
    try {
      let knowledgeBaseId: string | undefined;
      let failedToIndex = 0;
      if (kind === 'v2') {
        store.log(`Creating v2 knowledge base "${name}" from ${fileIds.length} file(s)`);
        const made = await createKnowledgeBaseV2(
          api,
          { name, description, fileIds },
          (p) => store.dispatch({ type: 'flags', flags: { indexing: p } }),
          store.log,
        );
        ({ toolId, knowledgeBaseId, failed: failedToIndex } = made);
        store.log(`Knowledge base ${knowledgeBaseId} is indexed; its query tool is ${toolId}`);
      } else {
        store.log(`Creating query tool ${functionName} from ${fileIds.length} file(s)`);
        toolId = await createQueryTool(api, { name, description, functionName, fileIds }, store.log);
        store.log(`Created query tool ${toolId}`);
      }
      const assistantName =
        (await attachToolToAssistant(api, input.assistantId, toolId)) ||
        input.assistantName ||
        input.assistantId;
      const kb: CreatedKnowledgeBase = {
        kind,
        ...(knowledgeBaseId ? { knowledgeBaseId } : {}),
        toolId,
        name,
        description,
        functionName,
        assistantId: input.assistantId,
        assistantName,
        fileIds,
        createdAt: new Date(this.#now()).toISOString(),
      };
      store.dispatch({ type: 'knowledgeBaseAdded', kb });
      const unindexed = failedToIndex > 0 ? ` (${failedToIndex} could not be indexed)` : '';
      store.alert(
        'default',
        `Knowledge base "${name}" created with ${fileIds.length} file(s)${unindexed} and attached to ${assistantName}.`,
      );
      return kb;
    } catch (error) {
      store.alert('destructive', this.#message(error, toolId));
      return null;
    } finally {
      store.dispatch({ type: 'flags', flags: { creating: false, indexing: null } });
    }
  }

  #message(error: unknown, toolId: string | null): string {
    if (!(error instanceof KnowledgeBaseStepError)) return failureText(error, messages.toolCreationFailed);
    switch (error.step) {
      case 'tool':
        return failureText(error.cause, messages.toolCreationFailed);
      case 'v2':
        return failureText(error.cause, (t) => `Knowledge base creation failed: ${t}`);
      case 'indexing':
        return failureText(error.cause, (t) => `Knowledge base indexing failed: ${t}`);
      case 'assistant':
        this.#store.log(`Query tool ${toolId} was created but is not attached to the assistant`, 'error');
        return failureText(error.cause, messages.assistantUpdateFailed);
    }
  }
}
