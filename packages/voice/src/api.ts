/**
 * The voice SDK's seam to `@engage/vapi-client`: the one REST call it makes, POST /call/web,
 * through the client's tree-shakable route function (the rest of the client is not bundled), and
 * the client's abortable `sleep`. Nothing else in the SDK imports the client.
 * @module
 */
export {
  createRequester,
  createWebCall,
  isVapiApiError,
  sleep,
  VapiApiError,
  VapiNetworkError,
  type CreateAssistantDTO,
  type CreateWebCallDTO,
  type JsonObject,
  type Requester,
  type WebCall,
} from '@engage/vapi-client';
