/** Short names for the generated schemas the client and the emulator use. */
import type { components, paths } from './generated/openapi.js';

export type Schemas = components['schemas'];

export type FileSchema = Schemas['File'];
export type CreateFileDTO = Schemas['CreateFileDTO'];
export type UpdateFileDTO = Schemas['UpdateFileDTO'];
/** GET /file's query: `purpose` is required by the document since 2026-07-30. */
export type ListFilesQuery = paths['/file']['get']['parameters']['query'];

export type CreateKnowledgeBaseV2DTO = Schemas['CreateKnowledgeBaseV2DTO'];
export type UpdateKnowledgeBaseV2DTO = Schemas['UpdateKnowledgeBaseV2DTO'];
export type AttachKnowledgeBaseV2FileDTO = Schemas['AttachKnowledgeBaseV2FileDTO'];
export type KnowledgeBaseV2 = Schemas['KnowledgeBaseV2'];
export type KnowledgeBaseV2File = Schemas['KnowledgeBaseV2File'];
export type KnowledgeBaseV2WithFiles = Schemas['KnowledgeBaseV2WithFiles'];

export type CreateQueryToolDTO = Schemas['CreateQueryToolDTO'];
export type QueryToolSchema = Schemas['QueryTool'];
export type CreateAssistantDTO = Schemas['CreateAssistantDTO'];
export type UpdateAssistantDTO = Schemas['UpdateAssistantDTO'];
export type AssistantSchema = Schemas['Assistant'];
/** The request body of POST /call/web: a component of the document, though the route is not. */
export type CreateWebCallDTO = Schemas['CreateWebCallDTO'];
export type CallSchema = Schemas['Call'];
