/**
 * Named payload types for callers: the document's schemas where they describe what the provider
 * answers, corrected where they do not (an open file status, metadata as any object), and the
 * hand-written shapes of the routes the document lacks (see paths.ts).
 * @module
 */

import type {
  CreateFileDTO as CreateFileSchema,
  CreateWebCallDTO as CreateWebCallSchema,
  FileSchema,
  UpdateFileDTO as UpdateFileSchema,
  ListFilesQuery as ListFilesQuerySchema,
} from '@engage/vapi-contract';

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

export type VapiFilePurpose = NonNullable<CreateFileSchema['purpose']>;

/**
 * An uploaded file: the document's `File`, with `status` left open (older accounts report other
 * values) and `metadata` as any object (the generator renders a bare object as `Record<string, never>`).
 */
export interface VapiFile extends Omit<FileSchema, 'status' | 'metadata'> {
  status?: VapiFileStatus;
  metadata?: JsonObject;
}

/** GET /file's query: the document requires `purpose` since 2026-07-30. */
export type ListFilesQuery = Partial<ListFilesQuerySchema>;

export interface UploadFileOptions {
  /** File name sent in the multipart part (default: the File's own name, else 'file'). */
  name?: string;
  purpose?: VapiFilePurpose;
  /** Sent as a JSON string of at most 4096 characters. */
  metadata?: JsonObject;
}

/** PATCH /file/{id}: the document's UpdateFileDTO, with `name` (1–40 characters) required here. */
export type UpdateFileDTO = Required<UpdateFileSchema>;

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
  /** The docs send it; the current spec omits it. */
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
  /** The document's CreateWebCallDTO: a version name, or null for the current one. */
  assistantVersion?: CreateWebCallSchema['assistantVersion'];
  squadId?: string;
  squad?: JsonObject;
  squadOverrides?: JsonObject;
  workflowId?: string;
  workflow?: JsonObject;
  workflowOverrides?: JsonObject;
  roomDeleteOnUserLeaveEnabled?: boolean;
}

export interface WebCallTransport {
  /** 'daily' or 'vapi.websocket' (a plain string: openapi-fetch's answer types map `string & {}` away). */
  provider: string;
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
  /** 'webCall'. */
  type?: string;
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

// v2 knowledge bases: generated from the provider's OpenAPI document (@engage/vapi-contract).
export type {
  AttachKnowledgeBaseV2FileDTO,
  CreateKnowledgeBaseV2DTO,
  KnowledgeBaseV2,
  KnowledgeBaseV2File,
  KnowledgeBaseV2WithFiles,
  UpdateKnowledgeBaseV2DTO,
} from '@engage/vapi-contract';
