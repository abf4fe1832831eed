/**
 * The provider's OpenAPI document (openapi.json, a copy of VapiAI/docs fern/apis/api/openapi.json,
 * last changed 2026-08-18), loaded and with its known slips corrected. A subpath of its own
 * (`@engage/vapi-contract/document`): it is 3 MB, only the emulator and the generator read it.
 * @module
 */
import { readFileSync } from 'node:fs';

/** The parts of an OpenAPI 3.0 document this package reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation | unknown>>;
  components: { schemas: Record<string, JsonSchema> };
  [key: string]: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  operationId?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}

/** A schema object as found in the document (OpenAPI 3.0's JSON Schema dialect). */
export type JsonSchema = { [keyword: string]: unknown };

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** How openapi-typescript renders the document, for `npm run generate` and the test that it is fresh. */
export const GENERATOR_OPTIONS = {
  alphabetize: false,
  // A default is what the provider fills in, not a field a request must send.
  defaultNonNullable: false,
} as const;

/**
 * Corrects the document's known slips in place: four properties say `type: "object"` next to an
 * enum of strings (BackoffPlan.type, TransferPlan.sipVerb, AudioFormat.format, VoiceLibrary.provider);
 * the provider answers with and accepts strings there, and generators and validators choke on it.
 * Two voiceId alternatives (NeuphonicVoice, FallbackNeuphonicVoice) carry an empty enum, which
 * would accept nothing: it is dropped, leaving the plain string. Twenty-one patterns are written as
 * JavaScript literals ('/^[a-z]+$/', '/…/u'); a JSON Schema pattern is the bare expression, so the
 * slashes (and the flag) are removed.
 */
export function normalizeDocument<T>(node: T): T {
  if (Array.isArray(node)) node.forEach((item) => normalizeDocument(item));
  else if (node && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    if (
      schema.type === 'object' &&
      Array.isArray(schema.enum) &&
      schema.enum.every((v) => typeof v === 'string')
    )
      schema.type = 'string';
    if (Array.isArray(schema.enum) && schema.enum.length === 0) delete schema.enum;
    if (typeof schema.pattern === 'string')
      schema.pattern = schema.pattern.replace(/^\/(.*)\/[a-z]*$/s, '$1');
    Object.values(schema).forEach((value) => normalizeDocument(value));
  }
  return node;
}

/**
 * Adds what the provider's own documentation sends but its OpenAPI document leaves out: a query
 * tool's `function` ({ name, description }), on create and update; and DELETE /call/{id}'s `id`,
 * a path parameter the operation does not declare, whose bulk-delete body it marks required
 * though the provider deletes the call the path names without one. Typed clients and the
 * emulator's validation then both take them.
 */
function addDocumentedOmissions(doc: OpenApiDocument): OpenApiDocument {
  const deleteCall = doc.paths['/call/{id}']?.delete as OpenApiOperation | undefined;
  if (deleteCall) {
    const parameters = deleteCall.parameters ?? [];
    if (!parameters.some((p) => p.in === 'path' && p.name === 'id'))
      deleteCall.parameters = [
        ...parameters,
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      ];
    if (deleteCall.requestBody) deleteCall.requestBody.required = false;
  }
  const schemas = doc.components.schemas;
  for (const name of ['CreateQueryToolDTO', 'UpdateQueryToolDTO']) {
    const properties = schemas[name]?.properties as Record<string, JsonSchema> | undefined;
    if (properties && !properties.function)
      properties.function = {
        type: 'object',
        properties: { name: { type: 'string' }, description: { type: 'string' } },
        required: ['name'],
      };
  }
  return doc;
}

let cached: OpenApiDocument | undefined;

/** The corrected document, read once from the package's copy (never from ../shared). */
export function loadOpenApiDocument(): OpenApiDocument {
  cached ??= addDocumentedOmissions(
    normalizeDocument(
      JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as OpenApiDocument,
    ),
  );
  return cached;
}

/** Every documented operation as [METHOD, path pattern with {params}]. */
export function documentedRoutes(doc: OpenApiDocument = loadOpenApiDocument()): [string, string][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => m in item).map((m): [string, string] => [m.toUpperCase(), path]),
  );
}

/** One documented operation, or undefined. */
export function documentedOperation(
  method: string,
  path: string,
  doc: OpenApiDocument = loadOpenApiDocument(),
): OpenApiOperation | undefined {
  return doc.paths[path]?.[method.toLowerCase()] as OpenApiOperation | undefined;
}
