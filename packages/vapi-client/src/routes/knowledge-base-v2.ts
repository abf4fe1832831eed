/**
 * v2 knowledge bases: /v2/knowledge-base, /v2/knowledge-base/{id}, …/file, …/file/{fileId},
 * …/file/{fileId}/retry. Each base gets a query tool (`toolId`, on GET) to attach via model.toolIds.
 */
import { path, type Query, type Requester, type RequestOptions } from '../request.js';
import type {
  AttachKnowledgeBaseV2FileDTO,
  CreateKnowledgeBaseV2DTO,
  KnowledgeBaseV2,
  KnowledgeBaseV2File,
  KnowledgeBaseV2WithFiles,
  UpdateKnowledgeBaseV2DTO,
} from '../types.js';

/** Creates a base; the answer has no `toolId` yet in the document's shape: `getKnowledgeBaseV2` has it. */
export const createKnowledgeBaseV2 = <T = KnowledgeBaseV2>(
  r: Requester,
  body: CreateKnowledgeBaseV2DTO,
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: '/v2/knowledge-base', body, ...o });
/** A plain array; `limit` (0–1000) is the only query parameter. */
export const listKnowledgeBasesV2 = <T = KnowledgeBaseV2[]>(
  r: Requester,
  query?: Query,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: '/v2/knowledge-base', query, ...o });
/** The base with its files and the id of its query tool. */
export const getKnowledgeBaseV2 = <T = KnowledgeBaseV2WithFiles>(
  r: Requester,
  id: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/v2/knowledge-base/${id}`, ...o });
export const updateKnowledgeBaseV2 = <T = KnowledgeBaseV2>(
  r: Requester,
  id: string,
  body: UpdateKnowledgeBaseV2DTO,
  o?: RequestOptions,
) => r.request<T>({ method: 'PATCH', path: path`/v2/knowledge-base/${id}`, body, ...o });
export const deleteKnowledgeBaseV2 = <T = KnowledgeBaseV2>(r: Requester, id: string, o?: RequestOptions) =>
  r.request<T>({ method: 'DELETE', path: path`/v2/knowledge-base/${id}`, ...o });
export const listKnowledgeBaseV2Files = <T = KnowledgeBaseV2File[]>(
  r: Requester,
  id: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'GET', path: path`/v2/knowledge-base/${id}/file`, ...o });
/** Attaches an uploaded file; it starts `indexing` and becomes `ready` or `failed`. */
export const attachFileToKnowledgeBaseV2 = <T = KnowledgeBaseV2File>(
  r: Requester,
  id: string,
  body: AttachKnowledgeBaseV2FileDTO,
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: path`/v2/knowledge-base/${id}/file`, body, ...o });
/** `fileId` is the uploaded file's id (the `fileId` of a KnowledgeBaseV2File). */
export const detachFileFromKnowledgeBaseV2 = <T = KnowledgeBaseV2File>(
  r: Requester,
  id: string,
  fileId: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'DELETE', path: path`/v2/knowledge-base/${id}/file/${fileId}`, ...o });
/** Indexes a `failed` file again. */
export const retryKnowledgeBaseV2File = <T = KnowledgeBaseV2File>(
  r: Requester,
  id: string,
  fileId: string,
  o?: RequestOptions,
) => r.request<T>({ method: 'POST', path: path`/v2/knowledge-base/${id}/file/${fileId}/retry`, ...o });
