import { VapiApiError } from '@engage/vapi-client';
import {
  type Assistant,
  type ProviderApi,
  type ProviderFile,
  type QueryToolInput,
} from '../api/provider-api';
import { bytesProblem, readBytes } from '../lib/content-check';

export interface FakeProviderOptions {
  /** Milliseconds a file stays 'processing' after its upload. */
  processingMs?: number;
  now?: () => number;
}

type Fault = { status: number; retryAfterMs?: number; body?: string };

/**
 * An in-memory provider for controller tests: files go processing → done after `processingMs`
 * (failed when the content does not parse as its type: empty, not valid JSON…), with queued faults per route and a record of every call.
 */
export function createFakeProvider({ processingMs = 2_000, now = Date.now }: FakeProviderOptions = {}) {
  const files = new Map<string, ProviderFile & { readyAt: number; broken: boolean }>();
  const tools = new Map<string, QueryToolInput & { id: string }>();
  /** v2 knowledge bases: each attached file indexes for `processingMs` (fails when broken). */
  const bases = new Map<
    string,
    {
      id: string;
      name: string;
      description: string;
      toolId: string;
      files: { fileId: string; readyAt: number }[];
    }
  >();
  const assistants = new Map<string, Assistant>([
    [
      'asst-1',
      { id: 'asst-1', name: 'Index', model: { provider: 'openai', model: 'gpt-4o', toolIds: ['tool-old'] } },
    ],
  ]);
  const faults: Record<string, Fault[]> = {};
  const calls: string[] = [];
  let seq = 0;

  const fault = (route: string) => {
    const f = faults[route]?.shift();
    if (f)
      throw new VapiApiError({
        status: f.status,
        statusText: '',
        body: f.body ?? '',
        ...(f.retryAfterMs != null && { retryAfterMs: f.retryAfterMs }),
      });
  };
  const view = (f: ProviderFile & { readyAt: number; broken: boolean }): ProviderFile => ({
    id: f.id,
    name: f.name,
    bytes: f.bytes,
    mimetype: f.mimetype,
    createdAt: f.createdAt,
    url: f.url,
    status: now() >= f.readyAt ? (f.broken ? 'failed' : 'done') : 'processing',
  });

  const api: ProviderApi = {
    async uploadFile(file, name) {
      calls.push(`POST /file ${name}`);
      fault('upload');
      const id = `file-${++seq}`;
      const rec = {
        id,
        name,
        bytes: file.size,
        mimetype: file.type,
        createdAt: new Date(now()).toISOString(),
        url: `https://files.example/${id}`,
        status: 'processing',
        readyAt: now() + processingMs,
        broken: file.size === 0,
      };
      files.set(id, rec);
      // Read in the background (jsdom's FileReader waits for a timer tick, which fake timers hold):
      // well before `processingMs` has passed, content that does not parse marks the file broken.
      void readBytes(file).then(
        (bytes) => {
          if (bytesProblem(name, bytes) !== null) rec.broken = true;
        },
        () => undefined,
      );
      return view(rec);
    },
    async listFiles() {
      calls.push('GET /file');
      fault('list');
      return [...files.values()].map(view);
    },
    async getFile(id) {
      calls.push(`GET /file/${id}`);
      fault('get');
      const f = files.get(id);
      if (!f) throw new VapiApiError({ status: 404, statusText: 'Not Found', body: '' });
      return view(f);
    },
    async deleteFile(id) {
      calls.push(`DELETE /file/${id}`);
      fault('delete');
      if (!files.delete(id)) throw new VapiApiError({ status: 404, statusText: 'Not Found', body: '' });
    },
    async createQueryTool(input) {
      calls.push('POST /tool');
      fault('tool');
      const id = `tool-${++seq}`;
      tools.set(id, { ...input, id });
      return { id };
    },
    async createKnowledgeBaseV2(input) {
      calls.push('POST /v2/knowledge-base');
      fault('v2');
      const id = `kb-${++seq}`;
      const toolId = `tool-${++seq}`;
      bases.set(id, { id, ...input, toolId, files: [] });
      return { id };
    },
    async attachFileToKnowledgeBaseV2(id, fileId) {
      calls.push(`POST /v2/knowledge-base/${id}/file ${fileId}`);
      fault('v2-attach');
      const base = bases.get(id);
      if (!base || !files.has(fileId))
        throw new VapiApiError({ status: 404, statusText: 'Not Found', body: '' });
      base.files.push({ fileId, readyAt: now() + processingMs });
    },
    async getKnowledgeBaseV2(id) {
      calls.push(`GET /v2/knowledge-base/${id}`);
      fault('v2-get');
      const base = bases.get(id);
      if (!base) throw new VapiApiError({ status: 404, statusText: 'Not Found', body: '' });
      return {
        id,
        toolId: base.toolId,
        files: base.files.map((f) => ({
          fileId: f.fileId,
          status: now() < f.readyAt ? 'indexing' : files.get(f.fileId)?.broken ? 'failed' : 'ready',
        })),
      };
    },
    async listQueryTools() {
      calls.push('GET /tool');
      fault('tools');
      return [...tools.values()].map((t) => ({
        kind: 'query-tool' as const,
        id: t.id,
        name: t.function?.name ?? t.knowledgeBases[0]?.name ?? t.id,
        fileIds: t.knowledgeBases.flatMap((k) => k.fileIds),
      }));
    },
    async listKnowledgeBasesV2() {
      calls.push('GET /v2/knowledge-base');
      return [...bases.values()].map(({ id, name }) => ({ id, name }));
    },
    async listAssistants() {
      calls.push('GET /assistant');
      return [...assistants.values()].map(({ id, name }) => ({ id, name }));
    },
    async getAssistant(id) {
      calls.push(`GET /assistant/${id}`);
      fault('assistant');
      const a = assistants.get(id);
      if (!a) throw new VapiApiError({ status: 404, statusText: 'Not Found', body: '' });
      return structuredClone(a);
    },
    async updateAssistant(id, patch) {
      calls.push(`PATCH /assistant/${id}`);
      fault('update');
      const a = assistants.get(id);
      if (!a) throw new VapiApiError({ status: 404, statusText: 'Not Found', body: '' });
      const next = { ...a, model: patch.model };
      assistants.set(id, next);
      return next;
    },
  };
  return {
    api,
    files,
    tools,
    bases,
    assistants,
    calls,
    /** Queue faults for a route: the next calls answer these statuses in order. */
    failNext(
      route:
        | 'upload'
        | 'list'
        | 'get'
        | 'delete'
        | 'tool'
        | 'assistant'
        | 'update'
        | 'v2'
        | 'v2-attach'
        | 'v2-get'
        | 'tools',
      ...list: Fault[]
    ) {
      (faults[route] ??= []).push(...list);
    },
  };
}
