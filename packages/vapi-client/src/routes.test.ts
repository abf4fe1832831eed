import { describe, expect, it } from 'vitest';
import type { VapiClient } from './client.js';
import { VAPI_ROUTES } from './routes/table.js';
import { recordingClient } from './testing/recording-client.js';

const body = { a: 1 };
const blob = new Blob(['hello'], { type: 'text/plain' });
type Invoke = (c: VapiClient) => Promise<unknown>;

// Every route "REST client": [method, path as sent, how the client calls it].
const table: [string, string, Invoke][] = [
  // call
  ['POST', '/call', (c) => c.call.create(body)],
  ['GET', '/call', (c) => c.call.list()],
  ['GET', '/call/id1', (c) => c.call.get('id1')],
  ['PATCH', '/call/id1', (c) => c.call.update('id1', body)],
  ['DELETE', '/call/id1', (c) => c.call.delete('id1')],
  ['POST', '/call/phone', (c) => c.call.createPhone(body)],
  ['POST', '/call/web', (c) => c.call.createWeb({ assistantId: 'a' })],
  // call v2
  ['GET', '/v2/call/export', (c) => c.v2.exportCalls()],
  ['GET', '/v2/call', (c) => c.v2.listCalls()],
  ['GET', '/v2/call/metadata', (c) => c.v2.getCallMetadata()],
  ['GET', '/v2/assistant', (c) => c.v2.listAssistants()],
  ['GET', '/v2/phone-number', (c) => c.v2.listPhoneNumbers()],
  // chat
  ['GET', '/chat', (c) => c.chat.list()],
  ['POST', '/chat', (c) => c.chat.create(body)],
  ['GET', '/chat/id1', (c) => c.chat.get('id1')],
  ['DELETE', '/chat/id1', (c) => c.chat.delete('id1')],
  ['POST', '/chat/responses', (c) => c.chat.createResponse(body)],
  ['POST', '/chat/web', (c) => c.chat.createWeb(body)],
  ['POST', '/chat/web/responses', (c) => c.chat.createWebResponse(body)],
  // campaign
  ['POST', '/campaign', (c) => c.campaign.create(body)],
  ['GET', '/campaign', (c) => c.campaign.list()],
  ['GET', '/campaign/paginated', (c) => c.campaign.listPaginated()],
  ['GET', '/campaign/id1', (c) => c.campaign.get('id1')],
  ['PATCH', '/campaign/id1', (c) => c.campaign.update('id1', body)],
  ['DELETE', '/campaign/id1', (c) => c.campaign.delete('id1')],
  // session
  ['POST', '/session', (c) => c.session.create(body)],
  ['GET', '/session', (c) => c.session.list()],
  ['GET', '/session/id1', (c) => c.session.get('id1')],
  ['PATCH', '/session/id1', (c) => c.session.update('id1', body)],
  ['DELETE', '/session/id1', (c) => c.session.delete('id1')],
  // support
  ['POST', '/support/ticket', (c) => c.support.createTicket(body)],
  // assistant
  ['POST', '/assistant', (c) => c.assistant.create(body)],
  ['GET', '/assistant', (c) => c.assistant.list()],
  ['GET', '/assistant/id1', (c) => c.assistant.get('id1')],
  ['PATCH', '/assistant/id1', (c) => c.assistant.update('id1', body)],
  ['PUT', '/assistant/id1', (c) => c.assistant.replace('id1', body)],
  ['DELETE', '/assistant/id1', (c) => c.assistant.delete('id1')],
  ['GET', '/assistant/id1/version', (c) => c.assistant.listVersions('id1')],
  // phone number
  ['POST', '/phone-number', (c) => c.phoneNumber.create(body)],
  ['GET', '/phone-number', (c) => c.phoneNumber.list()],
  ['GET', '/phone-number/id1', (c) => c.phoneNumber.get('id1')],
  ['PATCH', '/phone-number/id1', (c) => c.phoneNumber.update('id1', body)],
  ['DELETE', '/phone-number/id1', (c) => c.phoneNumber.delete('id1')],
  ['POST', '/phone-number/import/twilio', (c) => c.phoneNumber.importTwilio(body)],
  ['POST', '/phone-number/import/vonage', (c) => c.phoneNumber.importVonage(body)],
  // tool, knowledge-base, squad
  ['POST', '/tool', (c) => c.tool.create({ type: 'function' })],
  ['GET', '/tool', (c) => c.tool.list()],
  ['GET', '/tool/id1', (c) => c.tool.get('id1')],
  ['PATCH', '/tool/id1', (c) => c.tool.update('id1', body)],
  ['DELETE', '/tool/id1', (c) => c.tool.delete('id1')],
  ['POST', '/knowledge-base', (c) => c.knowledgeBase.create(body)],
  ['GET', '/knowledge-base', (c) => c.knowledgeBase.list()],
  ['GET', '/knowledge-base/id1', (c) => c.knowledgeBase.get('id1')],
  ['PATCH', '/knowledge-base/id1', (c) => c.knowledgeBase.update('id1', body)],
  ['DELETE', '/knowledge-base/id1', (c) => c.knowledgeBase.delete('id1')],
  ['POST', '/v2/knowledge-base', (c) => c.knowledgeBaseV2.create({ name: 'kb' })],
  ['GET', '/v2/knowledge-base', (c) => c.knowledgeBaseV2.list()],
  ['GET', '/v2/knowledge-base/id1', (c) => c.knowledgeBaseV2.get('id1')],
  ['PATCH', '/v2/knowledge-base/id1', (c) => c.knowledgeBaseV2.update('id1', { name: 'kb2' })],
  ['DELETE', '/v2/knowledge-base/id1', (c) => c.knowledgeBaseV2.delete('id1')],
  ['GET', '/v2/knowledge-base/id1/file', (c) => c.knowledgeBaseV2.listFiles('id1')],
  ['POST', '/v2/knowledge-base/id1/file', (c) => c.knowledgeBaseV2.attachFile('id1', { fileId: 'f1' })],
  ['DELETE', '/v2/knowledge-base/id1/file/f1', (c) => c.knowledgeBaseV2.detachFile('id1', 'f1')],
  ['POST', '/v2/knowledge-base/id1/file/f1/retry', (c) => c.knowledgeBaseV2.retryFile('id1', 'f1')],
  ['POST', '/squad', (c) => c.squad.create(body)],
  ['GET', '/squad', (c) => c.squad.list()],
  ['GET', '/squad/id1', (c) => c.squad.get('id1')],
  ['PATCH', '/squad/id1', (c) => c.squad.update('id1', body)],
  ['DELETE', '/squad/id1', (c) => c.squad.delete('id1')],
  // file
  ['POST', '/file', (c) => c.file.upload(blob, { name: 'a.txt' })],
  ['GET', '/file', (c) => c.file.list()],
  ['POST', '/file/upload', (c) => c.file.uploadLegacy(blob)],
  ['GET', '/file/id1', (c) => c.file.get('id1')],
  ['PATCH', '/file/id1', (c) => c.file.update('id1', { name: 'b.txt' })],
  ['DELETE', '/file/id1', (c) => c.file.delete('id1')],
  // workflow
  ['GET', '/workflow', (c) => c.workflow.list()],
  ['POST', '/workflow', (c) => c.workflow.create(body)],
  ['GET', '/workflow/id1', (c) => c.workflow.get('id1')],
  ['PATCH', '/workflow/id1', (c) => c.workflow.update('id1', body)],
  ['DELETE', '/workflow/id1', (c) => c.workflow.delete('id1')],
  ['POST', '/workflow/generate', (c) => c.workflow.generate(body)],
  // test suite, tests, runs
  ['GET', '/test-suite', (c) => c.testSuite.list()],
  ['POST', '/test-suite', (c) => c.testSuite.create(body)],
  ['GET', '/test-suite/id1', (c) => c.testSuite.get('id1')],
  ['PATCH', '/test-suite/id1', (c) => c.testSuite.update('id1', body)],
  ['DELETE', '/test-suite/id1', (c) => c.testSuite.delete('id1')],
  ['GET', '/test-suite/id1/test', (c) => c.testSuite.listTests('id1')],
  ['POST', '/test-suite/id1/test', (c) => c.testSuite.createTest('id1', body)],
  ['GET', '/test-suite/id1/test/t1', (c) => c.testSuite.getTest('id1', 't1')],
  ['PATCH', '/test-suite/id1/test/t1', (c) => c.testSuite.updateTest('id1', 't1', body)],
  ['DELETE', '/test-suite/id1/test/t1', (c) => c.testSuite.deleteTest('id1', 't1')],
  ['GET', '/test-suite/id1/run', (c) => c.testSuite.listRuns('id1')],
  ['POST', '/test-suite/id1/run', (c) => c.testSuite.createRun('id1', body)],
  ['GET', '/test-suite/id1/run/r1', (c) => c.testSuite.getRun('id1', 'r1')],
  ['PATCH', '/test-suite/id1/run/r1', (c) => c.testSuite.updateRun('id1', 'r1', body)],
  ['DELETE', '/test-suite/id1/run/r1', (c) => c.testSuite.deleteRun('id1', 'r1')],
  // analytics, logs
  ['POST', '/analytics', (c) => c.analytics.query(body)],
  ['GET', '/log', (c) => c.logs.listLog()],
  ['DELETE', '/log', (c) => c.logs.deleteLog()],
  ['GET', '/logs', (c) => c.logs.list()],
  ['DELETE', '/logs', (c) => c.logs.delete()],
  // org
  ['POST', '/org', (c) => c.org.create(body)],
  ['GET', '/org', (c) => c.org.list()],
  ['GET', '/org/o1', (c) => c.org.get('o1')],
  ['PATCH', '/org/o1', (c) => c.org.update('o1', body)],
  ['DELETE', '/org/o1', (c) => c.org.delete('o1')],
  ['GET', '/org/o1/user', (c) => c.org.listUsers('o1')],
  ['DELETE', '/org/o1/leave', (c) => c.org.leave('o1')],
  ['DELETE', '/org/o1/member/u1/leave', (c) => c.org.removeMember('o1', 'u1')],
  ['POST', '/org/o1/invite', (c) => c.org.invite('o1', body)],
  ['PATCH', '/org/o1/role', (c) => c.org.updateRole('o1', body)],
  ['GET', '/org/o1/auth', (c) => c.org.getAuth('o1')],
  // token
  ['POST', '/token', (c) => c.token.create(body)],
  ['GET', '/token', (c) => c.token.list()],
  ['GET', '/token/id1', (c) => c.token.get('id1')],
  ['PATCH', '/token/id1', (c) => c.token.update('id1', body)],
  ['DELETE', '/token/id1', (c) => c.token.delete('id1')],
  // credential
  ['POST', '/credential', (c) => c.credential.create(body)],
  ['GET', '/credential', (c) => c.credential.list()],
  ['GET', '/credential/id1', (c) => c.credential.get('id1')],
  ['PATCH', '/credential/id1', (c) => c.credential.update('id1', body)],
  ['DELETE', '/credential/id1', (c) => c.credential.delete('id1')],
  ['POST', '/credential/session', (c) => c.credential.createSession(body)],
  ['POST', '/credential/webhook', (c) => c.credential.webhook(body)],
  ['POST', '/credential/trigger', (c) => c.credential.trigger(body)],
  // template
  ['POST', '/template', (c) => c.template.create(body)],
  ['GET', '/template', (c) => c.template.list()],
  ['GET', '/template/pinned', (c) => c.template.listPinned()],
  ['GET', '/template/id1', (c) => c.template.get('id1')],
  ['PATCH', '/template/id1', (c) => c.template.update('id1', body)],
  ['DELETE', '/template/id1', (c) => c.template.delete('id1')],
  // voice library
  ['GET', '/voice-library/11labs', (c) => c.voiceLibrary.list('11labs')],
  ['GET', '/voice-library/11labs/accents', (c) => c.voiceLibrary.listAccents('11labs')],
  ['POST', '/voice-library/sync/11labs', (c) => c.voiceLibrary.syncProvider('11labs')],
  ['POST', '/voice-library/sync', (c) => c.voiceLibrary.sync()],
  ['POST', '/voice-library/create-sesame-voice', (c) => c.voiceLibrary.createSesameVoice(body)],
  // provider-specific
  ['GET', '/gohighlevel/workflows', (c) => c.provider.listWorkflows('gohighlevel')],
  ['GET', '/gohighlevel/workflows/w1/hooks', (c) => c.provider.listWorkflowHooks('gohighlevel', 'w1')],
  ['GET', '/gohighlevel/locations', (c) => c.provider.listLocations('gohighlevel')],
  ['GET', '/11labs/voices/search', (c) => c.provider.searchVoices('11labs')],
  ['GET', '/11labs/voice/search', (c) => c.provider.searchVoice('11labs')],
  ['POST', '/11labs/voices/add', (c) => c.provider.addVoices('11labs', body)],
  ['POST', '/11labs/voice/add', (c) => c.provider.addVoice('11labs', body)],
  ['POST', '/11labs/voice/clone', (c) => c.provider.cloneElevenLabsVoice({ name: 'v', files: [blob] })],
];

describe('every route', () => {
  it.each(table)('%s %s', async (method, path, invoke) => {
    const { client, calls } = recordingClient();
    await invoke(client);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe(method);
    expect(calls[0]?.url.origin + calls[0]!.url.pathname).toBe(`https://api.example.test${path}`);
    const auth = calls[0]?.headers.get('authorization');
    expect(auth).toBe(path === '/credential/webhook' ? null : 'Bearer sk-test');
  });

  it('matches the exported VAPI_ROUTES table, route for route', async () => {
    const sent: string[] = [];
    for (const [, , invoke] of table) {
      const { client, calls } = recordingClient();
      await invoke(client);
      sent.push(`${calls[0]!.method} ${calls[0]!.url.pathname}`);
    }
    const matches = (method: string, pattern: string, actual: string) =>
      new RegExp(`^${method} ${pattern.replace(/\{\w+\}/g, '[^/]+')}$`).test(actual);
    expect(VAPI_ROUTES).toHaveLength(table.length);
    VAPI_ROUTES.forEach(([method, pattern], i) => expect(matches(method, pattern, sent[i]!)).toBe(true));
  });

  it('covers every route function of the client, and no route twice', () => {
    const { client } = recordingClient();
    const functions = Object.entries(client)
      .filter(([area]) => area !== 'requester')
      .flatMap(([, fns]) => Object.keys(fns as object));
    expect(table).toHaveLength(functions.length);
    expect(new Set(table.map(([m, p]) => `${m} ${p}`)).size).toBe(table.length);
  });
});
