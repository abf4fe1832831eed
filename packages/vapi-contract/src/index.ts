/**
 * @engage/vapi-contract: the provider's (Vapi) HTTP contract. Types generated from its OpenAPI
 * document (src/generated/openapi.ts, `npm run generate -w @engage/vapi-contract`) and the route
 * table the client and the emulator share. The document itself is at `@engage/vapi-contract/document`.
 * @module
 */
export type { components, operations, paths } from './generated/openapi.js';
export * from './routes.js';
export type * from './schemas.js';
export * from './file-content.js';
