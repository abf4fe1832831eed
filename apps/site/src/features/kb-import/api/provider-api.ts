import {
  createVapiClient,
  dataOf,
  fileUpload,
  type VapiFile,
  type VapiRequestBody,
} from '@engage/vapi-client';
import { mimeTypeFor } from '../lib/file-types';

/**
 * The `purpose` the tool uploads with and lists by (see docs/decisions.md): 'assistant', the flow
 * whose files query tools and assistants use, and what files uploaded without one are taken as.
 */
export const FILE_PURPOSE = 'assistant' as const;

/** A provider file as the import tool reads it. */
export interface ProviderFile {
  id: string;
  name: string;
  bytes: number;
  mimetype: string;
  status: string;
  createdAt: string;
  url: string;
}

export interface AssistantSummary {
  id: string;
  name: string;
}

export interface Assistant extends AssistantSummary {
  model?: Record<string, unknown> & { toolIds?: string[] };
}

export interface QueryToolInput {
  type: 'query';
  /** The docs send it; the current API spec has no such field, so it may be refused. */
  function?: { name: string };
  knowledgeBases: { provider: 'google'; name: string; description: string; fileIds: string[] }[];
}

/** A v2 knowledge base as the tool reads it: its files' indexing and the query tool it comes with. */
export interface KnowledgeBaseV2View {
  id: string;
  toolId: string | null;
  files: { fileId: string; status: string }[];
}

/** A query tool or v2 knowledge base at the provider, with the files it uses (knowledge-in-use.ts). */
export interface ProviderKnowledge {
  kind: 'query-tool' | 'v2';
  /** The tool's id, or the v2 knowledge base's. */
  id: string;
  name: string;
  fileIds: string[];
}

/** The provider routes the import tool uses; failures are @engage/vapi-client's VapiApiError / VapiNetworkError. */
export interface ProviderApi {
  /** POST /file with the tool's `purpose`. */
  uploadFile(file: Blob, name: string, options?: { signal?: AbortSignal }): Promise<ProviderFile>;
  /** GET /file?purpose=…: the document requires `purpose` (a provider may also ignore it). */
  listFiles(options?: { signal?: AbortSignal }): Promise<ProviderFile[]>;
  getFile(id: string, options?: { signal?: AbortSignal }): Promise<ProviderFile>;
  deleteFile(id: string, options?: { signal?: AbortSignal }): Promise<void>;
  createQueryTool(input: QueryToolInput): Promise<{ id: string }>;
  /** POST /v2/knowledge-base. */
  createKnowledgeBaseV2(input: { name: string; description: string }): Promise<{ id: string }>;
  /** POST /v2/knowledge-base/{id}/file: the file starts indexing. */
  attachFileToKnowledgeBaseV2(id: string, fileId: string): Promise<void>;
  /** GET /v2/knowledge-base/{id}. */
  getKnowledgeBaseV2(id: string): Promise<KnowledgeBaseV2View>;
  listAssistants(): Promise<AssistantSummary[]>;
  /** GET /tool, keeping the query tools: their names and the files their knowledge bases hold. */
  listQueryTools(options?: { signal?: AbortSignal }): Promise<ProviderKnowledge[]>;
  /** GET /v2/knowledge-base: ids and names (the files come with getKnowledgeBaseV2). */
  listKnowledgeBasesV2(options?: { signal?: AbortSignal }): Promise<{ id: string; name: string }[]>;
  getAssistant(id: string): Promise<Assistant>;
  updateAssistant(id: string, patch: { model: Record<string, unknown> }): Promise<Assistant>;
}

export interface ProviderApiOptions {
  /** Base URL without trailing slash: the provider's, or `${origin}/api/provider`. */
  baseUrl: string;
  /** The bearer token: the typed private key, or the user's access token for the proxy. */
  getToken: () => string | null | Promise<string | null>;
  fetch?: typeof fetch;
}

function toFile(
  f: Omit<VapiFile, 'status' | 'metadata'> & { status?: string },
  fallbackName = '',
): ProviderFile {
  return {
    id: f.id,
    name: f.name ?? f.originalName ?? fallbackName,
    bytes: f.bytes ?? 0,
    mimetype: f.mimetype ?? '',
    status: f.status ?? 'processing',
    createdAt: f.createdAt ?? '',
    url: f.url ?? '',
  };
}

/** A tool as GET /tool lists it: only what the import tool reads. */
interface RawTool {
  id: string;
  type?: string;
  function?: { name?: string };
  knowledgeBases?: { name?: string; fileIds?: string[] }[];
}

function toQueryTool(t: RawTool): ProviderKnowledge {
  const bases = Array.isArray(t.knowledgeBases) ? t.knowledgeBases : [];
  return {
    kind: 'query-tool',
    id: t.id,
    name: t.function?.name || bases[0]?.name || t.id,
    fileIds: bases.flatMap((b) => (Array.isArray(b.fileIds) ? b.fileIds : [])),
  };
}

function toAssistant(a: { id: string; name?: string; model?: object }): Assistant {
  return { id: a.id, name: a.name ?? '', ...(a.model ? { model: { ...a.model } } : {}) };
}

/** A listing as the tool reads it: a provider that answers anything but an array lists nothing. */
const items = <T>(list: unknown): T[] => (Array.isArray(list) ? (list as T[]) : []);

/**
 * The import tool's routes over @engage/vapi-client. One request per call, no client retries:
 * retries and pacing belong to the pipeline, which knows what is safe to repeat.
 */
export function createProviderApi({ baseUrl, getToken, fetch: fetchImpl }: ProviderApiOptions): ProviderApi {
  const vapi = createVapiClient({ baseUrl, token: getToken, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  const id = (value: string) => ({ path: { id: value } });
  return {
    uploadFile: async (file, name, { signal } = {}) => {
      const typed = new File([file], name, { type: mimeTypeFor(name) });
      return toFile(
        await dataOf(vapi.POST('/file', { ...fileUpload(typed, { name, purpose: FILE_PURPOSE }), signal })),
        name,
      );
    },
    listFiles: async ({ signal } = {}) => {
      const list = await dataOf(vapi.GET('/file', { params: { query: { purpose: FILE_PURPOSE } }, signal }));
      return items<VapiFile>(list).map((f) => toFile(f));
    },
    getFile: async (fileId, { signal } = {}) =>
      toFile(await dataOf(vapi.GET('/file/{id}', { params: id(fileId), signal }))),
    deleteFile: async (fileId, { signal } = {}) => {
      await vapi.DELETE('/file/{id}', { params: id(fileId), signal });
    },
    createQueryTool: async (input) => ({
      id: (await dataOf(vapi.POST('/tool', { body: input as VapiRequestBody<'/tool', 'post'> }))).id,
    }),
    createKnowledgeBaseV2: async (input) => ({
      id: (await dataOf(vapi.POST('/v2/knowledge-base', { body: input }))).id,
    }),
    attachFileToKnowledgeBaseV2: async (kbId, fileId) => {
      await vapi.POST('/v2/knowledge-base/{id}/file', { params: id(kbId), body: { fileId } });
    },
    getKnowledgeBaseV2: async (kbId) => {
      const kb = await dataOf(vapi.GET('/v2/knowledge-base/{id}', { params: id(kbId) }));
      return {
        id: kb.id,
        toolId: kb.toolId ?? null,
        files: items<{ fileId: string; status: string }>(kb.files).map((f) => ({
          fileId: f.fileId,
          status: f.status,
        })),
      };
    },
    listAssistants: async () => {
      const list = await dataOf(vapi.GET('/assistant', { params: { query: { limit: 1000 } } }));
      return items<{ id: string; name?: string }>(list).map((a) => ({ id: a.id, name: a.name ?? '' }));
    },
    listQueryTools: async ({ signal } = {}) => {
      const list = await dataOf(vapi.GET('/tool', { params: { query: { limit: 1000 } }, signal }));
      return items<RawTool>(list)
        .filter((t) => t.type === 'query')
        .map(toQueryTool);
    },
    listKnowledgeBasesV2: async ({ signal } = {}) => {
      const list = await dataOf(
        vapi.GET('/v2/knowledge-base', { params: { query: { limit: 1000 } }, signal }),
      );
      return items<{ id: string; name?: string }>(list).map((b) => ({ id: b.id, name: b.name ?? b.id }));
    },
    getAssistant: async (assistantId) =>
      toAssistant(await dataOf(vapi.GET('/assistant/{id}', { params: id(assistantId) }))),
    // The model is the provider's own, read and patched back whole.
    updateAssistant: async (assistantId, patch) =>
      toAssistant(
        await dataOf(
          vapi.PATCH('/assistant/{id}', {
            params: id(assistantId),
            body: { model: patch.model } as VapiRequestBody<'/assistant/{id}', 'patch'>,
          }),
        ),
      ),
  };
}
