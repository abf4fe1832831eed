/**
 * The one REST call the voice SDK makes, POST /call/web, through `@engage/vapi-client`'s
 * tree-shakable route function (the rest of the client is not bundled). This file is the seam:
 * nothing else in the SDK imports the client.
 * @module
 */
export {
  createRequester,
  createWebCall,
  isVapiApiError,
  VapiApiError,
  VapiNetworkError,
  type CreateAssistantDTO,
  type CreateWebCallDTO,
  type JsonObject,
  type Requester,
  type WebCall,
} from '@engage/vapi-client';
