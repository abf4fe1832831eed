/**
 * Every route of the provider's REST API that this client covers (and /v2/knowledge-base),
 * as [method, path pattern]; the table lives in @engage/vapi-contract, shared with the emulator. A
 * separate module: importing the client never pulls this table in.
 */
export { VAPI_ROUTES } from '@engage/vapi-contract';
