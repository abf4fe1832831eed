import type { ProviderApi } from '../api/provider-api';
import { DEFAULT_KB_DESCRIPTION, DEFAULT_KB_NAME } from './constants';
import { functionNameProblem, toFunctionName } from './function-name';
import {
  KnowledgeBaseStepError,
  attachToolToAssistant,
  createKnowledgeBaseV2,
  createQueryTool,
} from './knowledge-base';
import { messages } from './messages';
import { isLocalOnlyId } from './state';
import type { CreatedKnowledgeBase } from './storage';
import { failureText, type KbImportStore } from './store';

export interface KnowledgeBaseInput {
  name: string;
  description: string;
  assistantId: string;
  assistantName?: string;
  /** 'query-tool' (default) or 'v2' (a v2 knowledge base and the tool it comes with). */
  kind?: 'query-tool' | 'v2';
}

/** Creation of the knowledge base from the done files, busy flag, messages and the created list. */
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
    const files = store.getState().uploaded.filter((f) => f.status === 'done' && !isLocalOnlyId(f.id));
    if (files.length === 0) {
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
    const fileIds = files.map((f) => f.id);
    store.dispatch({ type: 'flags', flags: { creating: true } });
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
