/**
 * Payload types. Shapes that SPEC and PROVIDER-FACTS show are typed in full; everything else is a
 * `VapiResource` (id plus unknown fields) that callers narrow with a route's type parameter.
 * @module
 */

/** Any JSON object body. */
export type JsonObject = Record<string, unknown>;

/** A provider resource whose shape the client does not model. */
export interface VapiResource {
  id: string;
  orgId?: string;
  createdAt?: string;
  updatedAt?: string;
  [field: string]: unknown;
}

/** 'processing' | 'done' | 'failed'; older accounts report other values: treat them as processing. */
export type VapiFileStatus = 'processing' | 'done' | 'failed' | (string & {});

export type VapiFilePurpose = 'assistant' | 'composer-attachment' | 'knowledge-base-v2';

/** An uploaded file (`File` in the provider's OpenAPI document). */
export interface VapiFile {
  id: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
  object?: 'file';
  status?: VapiFileStatus;
  name?: string;
  originalName?: string;
  bytes?: number;
  purpose?: string;
  mimetype?: string;
  key?: string;
  path?: string;
  bucket?: string;
  url?: string;
  parsedTextUrl?: string;
  parsedTextBytes?: number;
  metadata?: JsonObject;
}

export interface UploadFileOptions {
  /** File name sent in the multipart part (default: the File's own name, else 'file'). */
  name?: string;
  purpose?: VapiFilePurpose;
  /** Sent as a JSON string of at most 4096 characters. */
  metadata?: JsonObject;
}

export interface UpdateFileDTO {
  name: string;
}

/** One knowledge base of a query tool. `provider` may only be 'google'. */
export interface QueryToolKnowledgeBase {
  provider: 'google';
  name: string;
  description: string;
  fileIds: string[];
  model?: string;
}

export interface CreateQueryToolDTO {
  type: 'query';
  /** The docs send it; the current spec omits it (see PROVIDER-FACTS). */
  function?: { name: string; description?: string };
  knowledgeBases: QueryToolKnowledgeBase[];
  messages?: JsonObject[];
  rejectionPlan?: JsonObject;
}

export interface QueryTool extends CreateQueryToolDTO {
  id: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
}

/** Any tool: the query tool is typed, other types are open. */
export type Tool = QueryTool | (VapiResource & { type: string });
export type CreateToolDTO = CreateQueryToolDTO | (JsonObject & { type: string });

export interface AssistantVoice {
  provider: string;
  voiceId?: string;
  [field: string]: unknown;
}

/** The assistant's model config. A PATCH must carry the whole object: it replaces the stored one. */
export interface AssistantModel {
  provider: string;
  model: string;
  temperature?: number;
  maxTokens?: number;
  messages?: { role: 'system' | 'user' | 'assistant' | (string & {}); content: string }[];
  toolIds?: string[];
  tools?: JsonObject[];
  knowledgeBaseId?: string;
  [field: string]: unknown;
}

export interface Assistant {
  id: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
  name?: string;
  firstMessage?: string;
  model?: AssistantModel;
  voice?: AssistantVoice;
  transcriber?: JsonObject;
  metadata?: JsonObject;
  [field: string]: unknown;
}

export interface CreateAssistantDTO {
  name?: string;
  firstMessage?: string;
  model?: AssistantModel;
  voice?: AssistantVoice;
  transcriber?: JsonObject;
  metadata?: JsonObject;
  [field: string]: unknown;
}

export type UpdateAssistantDTO = CreateAssistantDTO;

/** The body of POST /call/web: one of assistant, squad or workflow (by id or inline). */
export interface CreateWebCallDTO {
  assistantId?: string;
  assistant?: CreateAssistantDTO;
  assistantOverrides?: JsonObject;
  assistantVersion?: number;
  squadId?: string;
  squad?: JsonObject;
  squadOverrides?: JsonObject;
  workflowId?: string;
  workflow?: JsonObject;
  workflowOverrides?: JsonObject;
  roomDeleteOnUserLeaveEnabled?: boolean;
}

export interface WebCallTransport {
  provider: 'daily' | 'vapi.websocket' | (string & {});
  callUrl?: string;
  callSipUri?: string;
  callToken?: string;
  [field: string]: unknown;
}

/** The answer of POST /call/web. Join `webCallUrl` (or `transport.callUrl`). */
export interface WebCall {
  id: string;
  orgId?: string;
  createdAt?: string;
  updatedAt?: string;
  type?: 'webCall' | (string & {});
  status?: string;
  assistantId?: string;
  webCallUrl: string;
  /** Only returned by POST /call/web. */
  artifactPlan?: { videoRecordingEnabled?: boolean; [field: string]: unknown };
  assistant?: { voice?: { provider?: string; [field: string]: unknown }; [field: string]: unknown };
  transport?: WebCallTransport;
  [field: string]: unknown;
}

/** A call as GET /call/{id} answers it. */
export interface Call extends VapiResource {
  type?: string;
  status?: string;
  assistantId?: string;
}

/** A knowledge base (/knowledge-base). */
export interface KnowledgeBase extends VapiResource {
  provider?: string;
  name?: string;
}

/** The body of POST /v2/knowledge-base. */
export interface CreateKnowledgeBaseV2DTO {
  /** 1–80 characters. */
  name: string;
  /** At most 1000 characters. */
  description?: string | null;
}

export type UpdateKnowledgeBaseV2DTO = Partial<CreateKnowledgeBaseV2DTO>;

export interface AttachKnowledgeBaseV2FileDTO {
  fileId: string;
}

/** A v2 knowledge base as POST, PATCH, DELETE and the listing answer it. */
export interface KnowledgeBaseV2 {
  id: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  description?: string | null;
}

/** One file of a v2 knowledge base: `indexing`, then `ready` or `failed`. */
export interface KnowledgeBaseV2File {
  id: string;
  knowledgeBaseV2Id: string;
  /** The uploaded file's id. */
  fileId: string;
  fileName?: string;
  mimetype?: string;
  bytes?: number;
  status: 'indexing' | 'ready' | 'failed';
  createdAt: string;
  updatedAt: string;
}

/** GET /v2/knowledge-base/{id}: the base, its files and its query tool (attach via model.toolIds). */
export interface KnowledgeBaseV2WithFiles extends KnowledgeBaseV2 {
  files: KnowledgeBaseV2File[];
  toolId: string | null;
}
