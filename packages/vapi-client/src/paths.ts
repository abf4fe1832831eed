/**
 * The routes the client is typed by: the provider's OpenAPI document (generated into
 * @engage/vapi-contract), plus the few routes Engage uses that the document lacks, written here in
 * the generator's shape. openapi-fetch reads these types; nothing here exists at run time.
 * @module
 */
import type { paths as DocumentedPaths } from '@engage/vapi-contract';
import type { Call, CreateWebCallDTO, JsonObject, KnowledgeBase, VapiResource, WebCall } from './types.js';

type Headers = { [name: string]: unknown };
type Json<T> = { content: { 'application/json': T } };
type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };
type IdParameter = { query?: never; header?: never; path: { id: string }; cookie?: never };
type QueryParameters = {
  query?: Record<string, string | number | boolean>;
  header?: never;
  path?: never;
  cookie?: never;
};

/** One operation in the generator's shape: JSON in (when `Body` is given), JSON out. */
type Operation<Parameters, Body, Result> = {
  parameters: Parameters;
  responses: { 200: { headers: Headers; content: { 'application/json': Result } } };
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: Json<Body> });

type Unused = {
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};

/** A path's entry: the methods it has, the others `never` as the generator writes them. */
type PathItem<Methods> = { parameters: NoParameters } & Omit<Unused, keyof Methods> & Methods;

/** HAND-WRITTEN: routes Engage calls that the provider's OpenAPI document does not describe. */
export interface UndocumentedPaths {
  '/call/web': PathItem<{ post: Operation<NoParameters, CreateWebCallDTO, WebCall> }>;
  '/call/phone': PathItem<{ post: Operation<NoParameters, JsonObject, Call> }>;
  '/chat/web': PathItem<{ post: Operation<NoParameters, JsonObject, unknown> }>;
  '/knowledge-base': PathItem<{
    get: Operation<QueryParameters, never, KnowledgeBase[]>;
    post: Operation<NoParameters, JsonObject, KnowledgeBase>;
  }>;
  '/knowledge-base/{id}': PathItem<{
    get: Operation<IdParameter, never, KnowledgeBase>;
    patch: Operation<IdParameter, JsonObject, KnowledgeBase>;
    delete: Operation<IdParameter, never, KnowledgeBase>;
  }>;
  '/assistant/{id}/version': PathItem<{ get: Operation<IdParameter, never, VapiResource[]> }>;
}

export type VapiPaths = DocumentedPaths & UndocumentedPaths;

type JsonBodyOf<Operation> = Operation extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/**
 * The JSON body a route takes, for a caller that relays what the provider itself answered (a
 * model read and then patched back whole), which the document types more narrowly than it sends.
 * @example
 * const body = { model: { ...model, toolIds } } as VapiRequestBody<'/assistant/{id}', 'patch'>;
 */
export type VapiRequestBody<
  Path extends keyof VapiPaths,
  Method extends 'post' | 'put' | 'patch',
> = JsonBodyOf<NonNullable<VapiPaths[Path][Method & keyof VapiPaths[Path]]>>;
