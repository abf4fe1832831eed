/**
 * `createVapiClient`: every route grouped by area, bound to one requester. Importing this pulls in
 * every route; import the standalone functions from the package root to keep a bundle small.
 * @module
 */
import { createRequester, type Requester, type RequesterOptions } from './request.js';
import * as analytics from './routes/analytics.js';
import * as assistant from './routes/assistant.js';
import * as call from './routes/call.js';
import * as campaign from './routes/campaign.js';
import * as chat from './routes/chat.js';
import * as credential from './routes/credential.js';
import * as file from './routes/file.js';
import * as knowledgeBaseV2 from './routes/knowledge-base-v2.js';
import * as knowledgeBase from './routes/knowledge-base.js';
import * as logs from './routes/logs.js';
import * as org from './routes/org.js';
import * as phoneNumber from './routes/phone-number.js';
import * as provider from './routes/provider.js';
import * as session from './routes/session.js';
import * as squad from './routes/squad.js';
import * as support from './routes/support.js';
import * as template from './routes/template.js';
import * as testSuite from './routes/test-suite.js';
import * as token from './routes/token.js';
import * as tool from './routes/tool.js';
import * as v2 from './routes/v2.js';
import * as voiceLibrary from './routes/voice-library.js';
import * as workflow from './routes/workflow.js';

/**
 * Binds a route to a requester. A generic function (not a mapped type) so TypeScript keeps each
 * route's own type parameter: `client.file.get<MyFile>(id)` still narrows.
 */
function binder(r: Requester) {
  return <A extends unknown[], R>(fn: (r: Requester, ...args: A) => R) =>
    (...args: A): R =>
      fn(r, ...args);
}

function areas(r: Requester) {
  const b = binder(r);
  return {
    call: {
      create: b(call.createCall),
      list: b(call.listCalls),
      get: b(call.getCall),
      update: b(call.updateCall),
      delete: b(call.deleteCall),
      createPhone: b(call.createPhoneCall),
      createWeb: b(call.createWebCall),
    },
    v2: {
      exportCalls: b(v2.exportCallsV2),
      listCalls: b(v2.listCallsV2),
      getCallMetadata: b(v2.getCallMetadataV2),
      listAssistants: b(v2.listAssistantsV2),
      listPhoneNumbers: b(v2.listPhoneNumbersV2),
    },
    chat: {
      list: b(chat.listChats),
      create: b(chat.createChat),
      get: b(chat.getChat),
      delete: b(chat.deleteChat),
      createResponse: b(chat.createChatResponse),
      createWeb: b(chat.createWebChat),
      createWebResponse: b(chat.createWebChatResponse),
    },
    campaign: {
      create: b(campaign.createCampaign),
      list: b(campaign.listCampaigns),
      listPaginated: b(campaign.listCampaignsPaginated),
      get: b(campaign.getCampaign),
      update: b(campaign.updateCampaign),
      delete: b(campaign.deleteCampaign),
    },
    session: {
      create: b(session.createSession),
      list: b(session.listSessions),
      get: b(session.getSession),
      update: b(session.updateSession),
      delete: b(session.deleteSession),
    },
    support: { createTicket: b(support.createSupportTicket) },
    assistant: {
      create: b(assistant.createAssistant),
      list: b(assistant.listAssistants),
      get: b(assistant.getAssistant),
      update: b(assistant.updateAssistant),
      replace: b(assistant.replaceAssistant),
      delete: b(assistant.deleteAssistant),
      listVersions: b(assistant.listAssistantVersions),
    },
    phoneNumber: {
      create: b(phoneNumber.createPhoneNumber),
      list: b(phoneNumber.listPhoneNumbers),
      get: b(phoneNumber.getPhoneNumber),
      update: b(phoneNumber.updatePhoneNumber),
      delete: b(phoneNumber.deletePhoneNumber),
      importTwilio: b(phoneNumber.importTwilioPhoneNumber),
      importVonage: b(phoneNumber.importVonagePhoneNumber),
    },
    tool: {
      create: b(tool.createTool),
      list: b(tool.listTools),
      get: b(tool.getTool),
      update: b(tool.updateTool),
      delete: b(tool.deleteTool),
    },
    knowledgeBase: {
      create: b(knowledgeBase.createKnowledgeBase),
      list: b(knowledgeBase.listKnowledgeBases),
      get: b(knowledgeBase.getKnowledgeBase),
      update: b(knowledgeBase.updateKnowledgeBase),
      delete: b(knowledgeBase.deleteKnowledgeBase),
    },
    knowledgeBaseV2: {
      create: b(knowledgeBaseV2.createKnowledgeBaseV2),
      list: b(knowledgeBaseV2.listKnowledgeBasesV2),
      get: b(knowledgeBaseV2.getKnowledgeBaseV2),
      update: b(knowledgeBaseV2.updateKnowledgeBaseV2),
      delete: b(knowledgeBaseV2.deleteKnowledgeBaseV2),
      listFiles: b(knowledgeBaseV2.listKnowledgeBaseV2Files),
      attachFile: b(knowledgeBaseV2.attachFileToKnowledgeBaseV2),
      detachFile: b(knowledgeBaseV2.detachFileFromKnowledgeBaseV2),
      retryFile: b(knowledgeBaseV2.retryKnowledgeBaseV2File),
    },
    squad: {
      create: b(squad.createSquad),
      list: b(squad.listSquads),
      get: b(squad.getSquad),
      update: b(squad.updateSquad),
      delete: b(squad.deleteSquad),
    },
    file: {
      upload: b(file.uploadFile),
      list: b(file.listFiles),
      uploadLegacy: b(file.uploadFileLegacy),
      get: b(file.getFile),
      update: b(file.updateFile),
      delete: b(file.deleteFile),
    },
    workflow: {
      list: b(workflow.listWorkflows),
      create: b(workflow.createWorkflow),
      get: b(workflow.getWorkflow),
      update: b(workflow.updateWorkflow),
      delete: b(workflow.deleteWorkflow),
      generate: b(workflow.generateWorkflow),
    },
    testSuite: {
      list: b(testSuite.listTestSuites),
      create: b(testSuite.createTestSuite),
      get: b(testSuite.getTestSuite),
      update: b(testSuite.updateTestSuite),
      delete: b(testSuite.deleteTestSuite),
      listTests: b(testSuite.listTestSuiteTests),
      createTest: b(testSuite.createTestSuiteTest),
      getTest: b(testSuite.getTestSuiteTest),
      updateTest: b(testSuite.updateTestSuiteTest),
      deleteTest: b(testSuite.deleteTestSuiteTest),
      listRuns: b(testSuite.listTestSuiteRuns),
      createRun: b(testSuite.createTestSuiteRun),
      getRun: b(testSuite.getTestSuiteRun),
      updateRun: b(testSuite.updateTestSuiteRun),
      deleteRun: b(testSuite.deleteTestSuiteRun),
    },
    analytics: { query: b(analytics.queryAnalytics) },
    logs: {
      listLog: b(logs.listLog),
      deleteLog: b(logs.deleteLog),
      list: b(logs.listLogs),
      delete: b(logs.deleteLogs),
    },
    org: {
      create: b(org.createOrg),
      list: b(org.listOrgs),
      get: b(org.getOrg),
      update: b(org.updateOrg),
      delete: b(org.deleteOrg),
      listUsers: b(org.listOrgUsers),
      leave: b(org.leaveOrg),
      removeMember: b(org.removeOrgMember),
      invite: b(org.inviteOrgUsers),
      updateRole: b(org.updateOrgRole),
      getAuth: b(org.getOrgAuth),
    },
    token: {
      create: b(token.createToken),
      list: b(token.listTokens),
      get: b(token.getToken),
      update: b(token.updateToken),
      delete: b(token.deleteToken),
    },
    credential: {
      create: b(credential.createCredential),
      list: b(credential.listCredentials),
      get: b(credential.getCredential),
      update: b(credential.updateCredential),
      delete: b(credential.deleteCredential),
      createSession: b(credential.createCredentialSession),
      webhook: b(credential.credentialWebhook),
      trigger: b(credential.triggerCredential),
    },
    template: {
      create: b(template.createTemplate),
      list: b(template.listTemplates),
      listPinned: b(template.listPinnedTemplates),
      get: b(template.getTemplate),
      update: b(template.updateTemplate),
      delete: b(template.deleteTemplate),
    },
    voiceLibrary: {
      list: b(voiceLibrary.listVoiceLibrary),
      listAccents: b(voiceLibrary.listVoiceLibraryAccents),
      syncProvider: b(voiceLibrary.syncVoiceLibraryProvider),
      sync: b(voiceLibrary.syncVoiceLibrary),
      createSesameVoice: b(voiceLibrary.createSesameVoice),
    },
    provider: {
      listWorkflows: b(provider.listProviderWorkflows),
      listWorkflowHooks: b(provider.listProviderWorkflowHooks),
      listLocations: b(provider.listProviderLocations),
      searchVoices: b(provider.searchProviderVoices),
      searchVoice: b(provider.searchProviderVoice),
      addVoices: b(provider.addProviderVoices),
      addVoice: b(provider.addProviderVoice),
      cloneElevenLabsVoice: b(provider.cloneElevenLabsVoice),
    },
  };
}

export type VapiClient = ReturnType<typeof areas> & { readonly requester: Requester };

/**
 * A client with every route of the provider grouped by area.
 * @example
 * const vapi = createVapiClient({ token: process.env.VAPI_PRIVATE_KEY });
 * const file = await vapi.file.upload(blob, { name: 'faq.md' });
 * const assistant = await vapi.assistant.get('asst_1');
 */
export function createVapiClient(options: RequesterOptions = {}): VapiClient {
  const requester = createRequester(options);
  return { ...areas(requester), requester };
}
