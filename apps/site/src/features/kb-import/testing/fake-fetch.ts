import { isVapiApiError } from '@engage/vapi-client';
import type { ProviderApi } from '../api/provider-api';

export interface FetchCall {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  authorization: string | null;
  body: unknown;
}

export interface ProviderFetchOptions {
  /**
   * 'required': GET /file without `purpose` is refused 400, as the current document says;
   * 'ignored' (default): the parameter makes no difference, as in older API versions.
   */
  purpose?: 'required' | 'ignored';
}

/**
 * A `fetch` that answers the provider's HTTP routes from a ProviderApi (the in-memory fake), so
 * component tests go through the real client, headers, bodies and error mapping.
 */
export function providerFetch(api: ProviderApi, base: string, options: ProviderFetchOptions = {}) {
  const calls: FetchCall[] = [];
  const json = (status: number, value: unknown) =>
    new Response(value === undefined ? null : JSON.stringify(value), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (!url.href.startsWith(base)) return json(404, { message: 'unknown host' });
    const path = url.pathname.slice(new URL(base).pathname.replace(/\/$/, '').length);
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    const body =
      init?.body instanceof FormData ? init.body : init?.body ? JSON.parse(String(init.body)) : undefined;
    const query = Object.fromEntries(url.searchParams);
    calls.push({ method, path, query, authorization: headers.get('Authorization'), body });
    const id = decodeURIComponent(path.split('/')[2] ?? '');
    try {
      if (method === 'POST' && path === '/file') {
        const file = (body as FormData).get('file') as File;
        return json(201, await api.uploadFile(file, file.name));
      }
      if (method === 'GET' && path === '/file') {
        if (options.purpose === 'required' && !query.purpose)
          return json(400, {
            message: ['purpose must be a string'],
            error: 'Bad Request',
            statusCode: 400,
          });
        return json(200, await api.listFiles());
      }
      if (method === 'GET' && path.startsWith('/file/')) return json(200, await api.getFile(id));
      if (method === 'DELETE' && path.startsWith('/file/')) {
        await api.deleteFile(id);
        return json(200, { id });
      }
      if (method === 'POST' && path === '/tool') return json(201, await api.createQueryTool(body as never));
      if (method === 'GET' && path === '/tool') {
        const tools = await api.listQueryTools();
        return json(
          200,
          tools.map((t) => ({
            id: t.id,
            type: 'query',
            function: { name: t.name },
            knowledgeBases: [{ provider: 'google', name: t.name, description: '', fileIds: t.fileIds }],
          })),
        );
      }
      if (method === 'GET' && path === '/v2/knowledge-base')
        return json(200, await api.listKnowledgeBasesV2());
      if (method === 'POST' && path === '/v2/knowledge-base')
        return json(201, await api.createKnowledgeBaseV2(body as { name: string; description: string }));
      const v2 = /^\/v2\/knowledge-base\/([^/]+)(\/file)?$/.exec(path);
      if (v2 && method === 'POST' && v2[2]) {
        const fileId = (body as { fileId: string }).fileId;
        await api.attachFileToKnowledgeBaseV2(decodeURIComponent(v2[1] ?? ''), fileId);
        return json(201, { fileId, status: 'indexing' });
      }
      if (v2 && method === 'GET' && !v2[2])
        return json(200, await api.getKnowledgeBaseV2(decodeURIComponent(v2[1] ?? '')));
      if (method === 'GET' && path === '/assistant') return json(200, await api.listAssistants());
      if (method === 'GET' && path.startsWith('/assistant/')) return json(200, await api.getAssistant(id));
      if (method === 'PATCH' && path.startsWith('/assistant/'))
        return json(200, await api.updateAssistant(id, body as { model: Record<string, unknown> }));
      return json(404, { message: `No route for ${method} ${path}` });
    } catch (error) {
      if (isVapiApiError(error)) {
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (error.retryAfterMs !== undefined) headers['Retry-After'] = String(error.retryAfterMs / 1000);
        return new Response(error.bodyText || JSON.stringify({ message: error.statusText }), {
          status: error.status,
          statusText: error.statusText,
          headers,
        });
      }
      throw error;
    }
  };
  return { fetch: fetchImpl, calls };
}
