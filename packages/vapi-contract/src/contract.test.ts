import { readFileSync } from 'node:fs';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { documentedRoutes, GENERATOR_OPTIONS, loadOpenApiDocument } from './document.js';
import {
  DOCUMENTED_ROUTES,
  isDocumentedRoute,
  PROVIDER_ROUTES,
  SPEC_ONLY_ROUTES,
  VAPI_ROUTES,
} from './routes.js';

const keys = (routes: readonly (readonly [string, string])[]) => routes.map(([m, p]) => `${m} ${p}`);

describe('the contract', () => {
  it('lists every operation of the document (137), and the generated table is up to date', () => {
    expect(keys(DOCUMENTED_ROUTES)).toEqual(keys(documentedRoutes()));
    expect(DOCUMENTED_ROUTES).toHaveLength(137);
  });

  it('keeps the generated types in step with openapi.json', async () => {
    const fresh = astToString(
      await openapiTS(loadOpenApiDocument() as unknown as OpenAPI3, GENERATOR_OPTIONS),
    );
    const stored = readFileSync(new URL('./generated/openapi.ts', import.meta.url), 'utf8');
    expect(stored.endsWith(fresh), 'run `npm run generate -w @engage/vapi-contract`').toBe(true);
  });

  it('marks the routes the document lacks, and lists every route once', () => {
    expect(isDocumentedRoute('GET', '/file')).toBe(true);
    expect(isDocumentedRoute('POST', '/v2/knowledge-base/{id}/file')).toBe(true);
    expect(keys(SPEC_ONLY_ROUTES)).toContain('POST /call/web');
    expect(keys(SPEC_ONLY_ROUTES)).not.toContain('GET /file');
    expect(new Set(keys(VAPI_ROUTES)).size).toBe(VAPI_ROUTES.length);
    expect(new Set(keys(PROVIDER_ROUTES)).size).toBe(PROVIDER_ROUTES.length);
  });

  it('corrects the string enums the document types as objects', () => {
    const doc = loadOpenApiDocument();
    const backoff = doc.components.schemas.BackoffPlan as { properties: { type: { type: string } } };
    expect(backoff.properties.type.type).toBe('string');
  });
});
