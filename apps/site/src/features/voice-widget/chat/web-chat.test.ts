import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHAT_TIMEOUT_MS,
  checkInput,
  httpErrorMessage,
  MAX_ANSWER_CHARS,
  MAX_INPUT_CHARS,
  MAX_RESPONSE_CHARS,
  parseWebChatResponse,
  sendWebChat,
  webChatBody,
  WebChatError,
} from './web-chat';

const target = { apiBaseUrl: 'https://api.example/provider/', publicKey: 'pk_1', assistantId: 'asst_1' };
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answer = (content: string, sessionId = 'sess_1') =>
  json(201, { id: 'chat_1', sessionId, output: [{ role: 'assistant', content }] });

/** The error a promise rejected with (the test fails if it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('checkInput', () => {
  it('trims, refuses an empty message and one over the limit, and accepts the limit itself', () => {
    expect(checkInput('  hello \n')).toEqual({ ok: true, input: 'hello' });
    expect(checkInput(' \n\t ')).toEqual({ ok: false, message: 'Type a message first.' });
    expect(checkInput('a'.repeat(MAX_INPUT_CHARS))).toEqual({ ok: true, input: 'a'.repeat(MAX_INPUT_CHARS) });
    expect(checkInput('a'.repeat(MAX_INPUT_CHARS + 1))).toEqual({
      ok: false,
      message: 'Your message is too long: shorten it to 2,000 characters.',
    });
  });
});

describe('webChatBody', () => {
  it('is CreateWebChatDTO: the assistant, the trimmed input, and the session when there is one', () => {
    expect(webChatBody(target, { input: ' Hi ' })).toEqual({ assistantId: 'asst_1', input: 'Hi' });
    expect(webChatBody(target, { input: 'And?', sessionId: 'sess_9' })).toEqual({
      assistantId: 'asst_1',
      input: 'And?',
      sessionId: 'sess_9',
    });
  });

  it('refuses input that may not be sent', () => {
    expect(() => webChatBody(target, { input: '   ' })).toThrow('Type a message first.');
    expect(() => webChatBody(target, { input: 'x'.repeat(MAX_INPUT_CHARS + 1) })).toThrow(/too long/);
  });
});

describe('parseWebChatResponse', () => {
  it('reads the answer and the session of a WebChat, ignoring other roles and extra fields', () => {
    expect(
      parseWebChatResponse({
        id: 'chat_1',
        sessionId: 'sess_1',
        extra: true,
        output: [
          { role: 'system', content: 'ignored' },
          { role: 'assistant', content: 'First.', metadata: {} },
          { role: 'assistant', tool_calls: [] },
          { role: 'assistant', content: ' Second. ' },
        ],
      }),
    ).toEqual({ id: 'chat_1', sessionId: 'sess_1', answer: 'First.\n\nSecond.' });
  });

  it('gives a null session when the provider sends none', () => {
    expect(
      parseWebChatResponse({ id: 'c', output: [{ role: 'assistant', content: 'ok' }] }).sessionId,
    ).toBeNull();
  });

  it.each([
    ['not an object', 'hello'],
    ['no id', { output: [{ role: 'assistant', content: 'x' }] }],
    ['output not a list', { id: 'c', output: 'x' }],
    ['content not a string', { id: 'c', output: [{ role: 'assistant', content: 42 }] }],
    ['an absurd session id', { id: 'c', sessionId: 's'.repeat(201), output: [] }],
  ])('refuses a body that is not a WebChat (%s)', (_name, body) => {
    let error: unknown = null;
    try {
      parseWebChatResponse(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WebChatError);
    expect(error).toMatchObject({ kind: 'invalid' });
  });

  it('says so when the assistant sent no answer', () => {
    expect(() => parseWebChatResponse({ id: 'c', output: [{ role: 'assistant', content: '  ' }] })).toThrow(
      'The assistant sent no answer. Please try again.',
    );
  });

  it('cuts an answer longer than the documented maximum', () => {
    const { answer } = parseWebChatResponse({
      id: 'c',
      output: [{ role: 'assistant', content: 'a'.repeat(MAX_ANSWER_CHARS + 50) }],
    });
    expect(answer).toHaveLength(MAX_ANSWER_CHARS);
    expect(answer.endsWith('…')).toBe(true);
  });
});

describe('httpErrorMessage', () => {
  it.each([
    [
      401,
      { message: 'Invalid Key. Hot tip…' },
      'The assistant refused this site’s key, so text chat is unavailable right now.',
    ],
    [404, null, 'This assistant could not be found.'],
    [429, null, 'Too many messages at once. Wait a moment, then try again.'],
    [501, null, 'Text chat is not available on this service.'],
    [503, { message: 'internal detail' }, 'The assistant’s service had a problem (503). Please try again.'],
    [
      400,
      { message: ['input must be a string', 'input should not be empty'] },
      'The assistant could not take this message: input must be a string; input should not be empty',
    ],
    [400, 'not json', 'The assistant could not take this message (400).'],
  ])('%i → a readable message', (status, body, message) => {
    expect(httpErrorMessage(status, body)).toBe(message);
  });

  it("caps the provider's words and strips control characters", () => {
    const message = httpErrorMessage(422, { message: `bad\u0000\u001b[31m${'x'.repeat(500)}` });
    // eslint-disable-next-line no-control-regex
    expect(message).not.toMatch(/[\u0000-\u001f]/);
    expect(message.length).toBeLessThan(260);
  });
});

describe('sendWebChat', () => {
  it('sends the request and returns the answer', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => answer('Hello!'));
    await expect(sendWebChat(target, { input: 'Hi', sessionId: 'sess_0' }, { fetch })).resolves.toEqual({
      id: 'chat_1',
      sessionId: 'sess_1',
      answer: 'Hello!',
    });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('https://api.example/provider/chat/web');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer pk_1');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(String(init?.body))).toEqual({
      assistantId: 'asst_1',
      input: 'Hi',
      sessionId: 'sess_0',
    });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('keeps quotes, newlines and markup as data in the JSON body', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => answer('ok'));
    const input = 'say "hi"\n</script><b>x</b>';
    await sendWebChat(target, { input }, { fetch });
    expect(JSON.parse(String(fetch.mock.calls[0]![1]?.body)).input).toBe(input);
  });

  it('maps an HTTP error to a WebChatError with its status', async () => {
    const fetch = async () => json(401, { message: 'Invalid Key', error: 'Unauthorized', statusCode: 401 });
    const error = await rejection(sendWebChat(target, { input: 'Hi' }, { fetch }));
    expect(error).toBeInstanceOf(WebChatError);
    expect(error).toMatchObject({ kind: 'http', status: 401 });
  });

  it('maps a network failure to a readable message', async () => {
    const fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(sendWebChat(target, { input: 'Hi' }, { fetch })).rejects.toMatchObject({
      kind: 'network',
      message: 'Could not reach the assistant. Check your connection and try again.',
    });
  });

  it('treats a 2xx body that is not JSON, or is too large, as unreadable', async () => {
    const notJson = async () => new Response('<html>proxy</html>', { status: 200 });
    await expect(sendWebChat(target, { input: 'Hi' }, { fetch: notJson })).rejects.toMatchObject({
      kind: 'invalid',
    });
    const huge = async () =>
      new Response(
        `{"id":"c","output":[{"role":"assistant","content":"${'a'.repeat(MAX_RESPONSE_CHARS)}"}]}`,
      );
    await expect(sendWebChat(target, { input: 'Hi' }, { fetch: huge })).rejects.toMatchObject({
      kind: 'invalid',
    });
  });

  it('gives up after the timeout, aborting the request', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const fetch = (_url: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        signal = init?.signal ?? undefined;
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const sent = rejection(sendWebChat(target, { input: 'Hi' }, { fetch }));
    await vi.advanceTimersByTimeAsync(CHAT_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    expect(await sent).toMatchObject({
      kind: 'timeout',
      message: 'The assistant took too long to answer. Please try again.',
    });
  });

  it("rejects with the caller's abort (not a WebChatError) when the caller aborts", async () => {
    const controller = new AbortController();
    const fetch = (_url: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const sent = rejection(sendWebChat(target, { input: 'Hi' }, { fetch, signal: controller.signal }));
    controller.abort();
    const error = await sent;
    expect(error).not.toBeInstanceOf(WebChatError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});
