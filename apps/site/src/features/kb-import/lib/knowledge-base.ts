import { isVapiApiError } from '@engage/vapi-client';
import type { ProviderApi } from '../api/provider-api';
import { POLL_MAX_ATTEMPTS, pollDelay } from './constants';
import { sleep } from './sleep';
import type { LogLine } from './state';

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
