import {
  ANSWERS_DESCRIPTION,
  ANSWERS_FILE_NAME,
  ANSWERS_FUNCTION_NAME,
  ANSWERS_KB_NAME,
  answeredQuestions,
  answersFileBytes,
  MAX_ANSWERS_FILE_BYTES,
  mergeAnswer,
} from '@engage/http-contract/conversations';
import {
  dataOf,
  fileUpload,
  isVapiApiError,
  type VapiClient,
  type VapiRequestBody,
} from '@engage/vapi-client';

/**
 * Each assistant's "Answers" document at the provider: a markdown file in a query tool of its own
 * (knowledge base "Answers") on the assistant, attached the way the import tool attaches (the
 * assistant's model and other tools kept). Saving an answer uploads the new version, points the
 * tool at it and deletes the previous file. The server does the saving (conversations/routes.ts,
 * one save per assistant at a time): a read-append-upload done by two browsers at once lost an answer.
 * @module
 */

export interface AnswersStore {
  /** Normalised questions each assistant's Answers document answers (assistants without one: none). */
  answeredQuestions(assistantIds: readonly string[], signal?: AbortSignal): Promise<Map<string, Set<string>>>;
  saveAnswer(assistantId: string, question: string, answer: string): Promise<void>;
}

/** A save refused because the document would pass its size limit: nothing was written. */
export class AnswersFileFull extends Error {
  constructor(bytes: number, limit: number = MAX_ANSWERS_FILE_BYTES) {
    super(
      `The Answers file is full: with this answer it would be ${Math.ceil(bytes / 1000)} kB, over its ` +
        `limit of ${limit / 1000} kB (the voice provider's advice for a knowledge-base ` +
        'file). Nothing was saved. Replacing an answer already in it with a shorter one makes room.',
    );
    this.name = 'AnswersFileFull';
  }
}

/** The largest Answers document read back (a bigger one is not ours to merge into). */
const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

interface KnowledgeBase {
  provider: string;
  name: string;
  description: string;
  fileIds: string[];
  model?: string;
}

interface QueryTool {
  id: string;
  type?: string;
  knowledgeBases?: KnowledgeBase[];
}

interface Found {
  model: Record<string, unknown> & { toolIds?: unknown };
  tool: QueryTool | null;
  fileId: string | null;
  markdown: string | null;
}

const isAnswersBase = (kb: KnowledgeBase) => kb?.name === ANSWERS_KB_NAME;

/** Only the fields the provider's knowledge base takes back in a PATCH. */
const baseFields = (kb: KnowledgeBase): KnowledgeBase => ({
  provider: kb.provider,
  name: kb.name,
  description: kb.description,
  fileIds: kb.fileIds,
  ...(kb.model ? { model: kb.model } : {}),
});

export interface AnswersStoreOptions {
  /** The size limit of the Answers file in bytes (default MAX_ANSWERS_FILE_BYTES; tests set others). */
  maxFileBytes?: number;
}

export function answersStore(
  vapi: VapiClient,
  fetchImpl: typeof fetch,
  options: AnswersStoreOptions = {},
): AnswersStore {
  const maxFileBytes = options.maxFileBytes ?? MAX_ANSWERS_FILE_BYTES;
  const queryTools = async (signal?: AbortSignal): Promise<QueryTool[]> => {
    const list: unknown = await dataOf(vapi.GET('/tool', { params: { query: { limit: 1000 } }, signal }));
    return (Array.isArray(list) ? (list as QueryTool[]) : []).filter((t) => t?.type === 'query');
  };

  /** The text of a stored file, from its storage URL (no key needed, as the provider's links). */
  const readText = async (fileId: string, signal?: AbortSignal): Promise<string> => {
    const file = (await dataOf(vapi.GET('/file/{id}', { params: { path: { id: fileId } }, signal }))) ?? {};
    if (!file.url || (file.bytes ?? 0) > MAX_DOCUMENT_BYTES)
      throw new Error('The Answers document could not be read back, so nothing was changed.');
    const res = await fetchImpl(file.url, { signal, credentials: 'omit' });
    if (!res.ok) throw new Error(`The Answers document could not be read back (${res.status}).`);
    return res.text();
  };

  /** The assistant's model as the provider holds it: a PATCH replaces it whole, so all of it is kept. */
  const assistantModel = async (id: string, signal?: AbortSignal): Promise<Found['model']> => {
    const assistant = await dataOf(vapi.GET('/assistant/{id}', { params: { path: { id } }, signal }));
    return { ...assistant.model };
  };

  const find = async (assistantId: string, tools: QueryTool[], signal?: AbortSignal): Promise<Found> => {
    const model = await assistantModel(assistantId, signal);
    const toolIds = Array.isArray(model.toolIds) ? (model.toolIds as unknown[]) : [];
    const tool = tools.find((t) => toolIds.includes(t.id) && (t.knowledgeBases ?? []).some(isAnswersBase));
    const fileId = tool?.knowledgeBases?.find(isAnswersBase)?.fileIds?.[0] ?? null;
    return { model, tool: tool ?? null, fileId, markdown: fileId ? await readText(fileId, signal) : null };
  };

  return {
    async answeredQuestions(assistantIds, signal) {
      const tools = await queryTools(signal);
      const out = new Map<string, Set<string>>();
      for (const id of assistantIds) {
        let markdown: string | null;
        try {
          ({ markdown } = await find(id, tools, signal));
        } catch (error) {
          // An assistant the provider no longer has answers nothing; other errors are shown.
          if (isVapiApiError(error) && error.status === 404) continue;
          throw error;
        }
        if (markdown) out.set(id, answeredQuestions(markdown));
      }
      return out;
    },

    async saveAnswer(assistantId, question, answer) {
      const found = await find(assistantId, await queryTools());
      const markdown = mergeAnswer(found.markdown, question, answer);
      // Checked before anything is uploaded: a refused save writes nothing. Only a save that grows a
      // file past the limit is refused: one saved before the limit existed (up to MAX_DOCUMENT_BYTES)
      // must still take the shorter replacements the refusal's message advises.
      const bytes = answersFileBytes(markdown);
      const current = found.markdown === null ? 0 : answersFileBytes(found.markdown);
      if (bytes > maxFileBytes && bytes > current) throw new AnswersFileFull(bytes, maxFileBytes);
      const file = new File([markdown], ANSWERS_FILE_NAME, { type: 'text/markdown' });
      const uploaded = await dataOf(
        vapi.POST('/file', fileUpload(file, { name: ANSWERS_FILE_NAME, purpose: 'assistant' })),
      );
      try {
        if (found.tool) {
          const knowledgeBases = (found.tool.knowledgeBases ?? []).map((kb) =>
            isAnswersBase(kb)
              ? baseFields({
                  ...kb,
                  fileIds: [uploaded.id, ...kb.fileIds.filter((id) => id !== found.fileId)],
                })
              : baseFields(kb),
          );
          await vapi.PATCH('/tool/{id}', {
            params: { path: { id: found.tool.id } },
            body: { knowledgeBases } as VapiRequestBody<'/tool/{id}', 'patch'>,
          });
        } else {
          const tool = await dataOf(
            vapi.POST('/tool', {
              body: {
                type: 'query',
                function: { name: ANSWERS_FUNCTION_NAME },
                knowledgeBases: [
                  {
                    provider: 'google',
                    name: ANSWERS_KB_NAME,
                    description: ANSWERS_DESCRIPTION,
                    fileIds: [uploaded.id],
                  },
                ],
                // The provider's own documentation sends `function`; its OpenAPI document leaves it out.
              } as VapiRequestBody<'/tool', 'post'>,
            }),
          );
          // Read again just before writing: a PATCH replaces the whole model, so keep all of it.
          const model = await assistantModel(assistantId);
          const toolIds = Array.isArray(model.toolIds) ? (model.toolIds as string[]) : [];
          await vapi.PATCH('/assistant/{id}', {
            params: { path: { id: assistantId } },
            body: { model: { ...model, toolIds: [...toolIds, tool.id] } } as VapiRequestBody<
              '/assistant/{id}',
              'patch'
            >,
          });
        }
      } catch (error) {
        // The new version is not in use: it goes, and the previous one stays as it was.
        await vapi.DELETE('/file/{id}', { params: { path: { id: uploaded.id } } }).catch(() => undefined);
        throw error;
      }
      if (found.fileId)
        await vapi.DELETE('/file/{id}', { params: { path: { id: found.fileId } } }).catch(() => undefined);
    },
  };
}
