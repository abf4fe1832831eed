/**
 * Checks request bodies and query parameters against the provider's OpenAPI document, as the
 * provider's own validation does (NestJS, whitelist + forbidNonWhitelisted): required fields, types,
 * enums, lengths, and no top-level property the DTO does not declare. Ajv compiles each schema
 * once per process, on first use; the routes keep their own zod checks for what the document
 * cannot say (ids that must exist, limits of the emulator).
 * @module
 */
import {
  documentedOperation,
  loadOpenApiDocument,
  type JsonSchema,
  type OpenApiParameter,
} from '@engage/vapi-contract/document';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { fail } from './http.js';

/** A route as the document names it: 'PATCH /file/{id}'. */
export type RouteKey = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

/** Bodies the document describes by component though it lacks the route (POST /call/web and /chat/web). */
const COMPONENT_BODIES: Partial<Record<RouteKey, string>> = {
  'POST /call/web': 'CreateWebCallDTO',
  'POST /chat/web': 'CreateWebChatDTO',
  'POST /token': 'CreateTokenDTO',
  'PATCH /token/{id}': 'UpdateTokenDTO',
};

let compiler: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function ajv(): Ajv {
  if (!compiler) {
    // Formats (uuid, date-time) are left to the routes; `nullable` is OpenAPI's and Ajv knows it.
    compiler = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    compiler.addSchema({ components: unionsAsAnyOf(loadOpenApiDocument().components) }, 'openapi');
  }
  return compiler;
}

function validator(key: string, schema: JsonSchema): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    v = ajv().compile(unionsAsAnyOf(rebase(schema)));
    validators.set(key, v);
  }
  return v;
}

/**
 * The document's `oneOf` are TypeScript unions written out (NestJS), not exclusive choices: a
 * voiceId is `oneOf: [enum of presets, any string]`, which a preset matches twice. Validated as
 * `anyOf`, as the provider's class-validator treats them. Works on a copy.
 */
function unionsAsAnyOf<T>(node: T): T {
  return JSON.parse(JSON.stringify(node).replace(/"oneOf":/g, '"anyOf":')) as T;
}

/** Points the document's local $refs at the schema registered as 'openapi'. */
function rebase(schema: JsonSchema): JsonSchema {
  return JSON.parse(
    JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'),
  ) as JsonSchema;
}

const componentName = (schema: JsonSchema | undefined): string | undefined =>
  typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;

const component = (name: string): JsonSchema => loadOpenApiDocument().components.schemas[name] ?? {};

/** ajv's errors as the provider words them: "name must NOT have more than 40 characters". */
function messages(errors: ErrorObject[] | null | undefined, where = ''): string[] {
  const out = (errors ?? []).map((e) => {
    const path = [where, ...e.instancePath.split('/').filter(Boolean)].filter(Boolean).join('.');
    const detail =
      e.keyword === 'enum'
        ? `must be one of the following values: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
        : e.keyword === 'additionalProperties'
          ? `property ${(e.params as { additionalProperty: string }).additionalProperty} should not exist`
          : (e.message ?? 'is invalid');
    return path ? `${path} ${detail}` : detail;
  });
  // oneOf failures repeat themselves per alternative: keep the answer readable.
  return [...new Set(out)].slice(0, 12);
}

/** The JSON body schema of a route, or undefined when the document has none. */
function bodySchema(route: RouteKey): JsonSchema | undefined {
  const named = COMPONENT_BODIES[route];
  if (named) return { $ref: `#/components/schemas/${named}` };
  const [method, path] = route.split(' ') as [string, string];
  return documentedOperation(method, path)?.requestBody?.content['application/json']?.schema;
}

/**
 * Picks the alternative of a `oneOf` body by the tool's `type`, as the provider's discriminator
 * does. Update DTOs carry no `type`: their alternative has the same title as the create one.
 */
function alternative(schema: JsonSchema, type: unknown): JsonSchema {
  const options = schema.oneOf as (JsonSchema & { title?: string })[];
  const create = (documentedOperation('post', '/tool')?.requestBody?.content['application/json']?.schema
    ?.oneOf ?? []) as (JsonSchema & { title?: string })[];
  const title = create.find((o) => {
    const types = (component(componentName(o) ?? '').properties as Record<string, JsonSchema> | undefined)
      ?.type?.enum as unknown[] | undefined;
    return types?.includes(type);
  })?.title;
  const chosen = options.find((o) => o.title === title);
  if (!chosen) {
    const known = create.flatMap(
      (o) =>
        ((component(componentName(o) ?? '').properties as Record<string, JsonSchema> | undefined)?.type
          ?.enum as string[] | undefined) ?? [],
    );
    fail(400, [`type must be one of the following values: ${known.join(', ')}`]);
  }
  return chosen;
}

/**
 * Checks a JSON body against the route's request schema: 400 listing every problem. `type` picks
 * the alternative of a `oneOf` body (tools); it defaults to the body's own `type`.
 */
export function checkBody(route: RouteKey, body: unknown, type?: unknown): void {
  let schema = bodySchema(route);
  if (!schema) return;
  let key: string = route;
  if (Array.isArray(schema.oneOf)) {
    const t = type ?? (body as { type?: unknown } | null)?.type;
    schema = alternative(schema, t);
    key = `${route} ${String(t)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    fail(400, 'The body must be a JSON object.');
  const name = componentName(schema);
  const declared = Object.keys((name ? component(name).properties : schema.properties) ?? {});
  const allowed = new Set(declared);
  const unknown = Object.keys(body).filter((k) => !allowed.has(k));
  const v = validator(key, schema);
  const problems = [
    ...unknown.map((k) => `property ${k} should not exist`),
    ...(v(body) ? [] : messages(v.errors)),
  ];
  if (problems.length) fail(400, problems);
}

export interface QueryCheckOptions {
  /** Parameters the document requires that this emulator lets a caller leave out. */
  optional?: readonly string[];
}

/** Checks query parameters against the route's: required ones present, types and ranges, no others. */
export function checkQuery(
  route: RouteKey,
  query: Record<string, string>,
  options: QueryCheckOptions = {},
): void {
  const [method, path] = route.split(' ') as [string, string];
  const params = (documentedOperation(method, path)?.parameters ?? []).filter(
    (p): p is OpenApiParameter => p.in === 'query',
  );
  const problems: string[] = [];
  for (const name of Object.keys(query))
    if (!params.some((p) => p.name === name)) problems.push(`property ${name} should not exist`);
  for (const p of params) {
    const value = query[p.name];
    if (value === undefined) {
      if (p.required && !options.optional?.includes(p.name)) problems.push(`${p.name} must be provided`);
      continue;
    }
    const schema = p.schema ?? {};
    const typed = schema.type === 'number' || schema.type === 'integer' ? Number(value) : value;
    if (typeof typed === 'number' && Number.isNaN(typed)) {
      problems.push(`${p.name} must be a number`);
      continue;
    }
    const v = validator(`query ${route} ${p.name}`, schema);
    if (!v(typed)) problems.push(...messages(v.errors, p.name));
  }
  if (problems.length) fail(400, problems);
}

/** The problems of a value against one of the document's components ([] when it fits): for tests of shapes sent. */
export function componentProblems(name: string, value: unknown): string[] {
  const v = validator(`component ${name}`, { $ref: `#/components/schemas/${name}` });
  return v(value) ? [] : messages(v.errors);
}
