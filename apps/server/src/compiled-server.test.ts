// The compiled server (dist/main.js, what `npm start` runs) does what runs from the sources does,
// including the parts that load files of their own at run time: migrations, the provider's OpenAPI
// document, and the document thread that reads uploaded PDFs.
import { minimalPdf } from '@engage/vapi-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, type InstanceProcess } from './testing/instance-process.js';

const PRIVATE_KEY = 'compiled-server-private-key';
let instance: InstanceProcess;

beforeAll(async () => {
  instance = await startInstance({ EMULATOR_PRIVATE_KEY: PRIVATE_KEY, ADMIN_PASSWORD: 'compiled-admin-pw' });
}, 60_000);
afterAll(() => instance?.dispose());

const provider = (path: string, init: RequestInit = {}) =>
  fetch(`${instance.url}/provider${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${PRIVATE_KEY}`, ...init.headers },
  });

describe('the compiled server', () => {
  it('reads an uploaded PDF in its document thread, and answers from it', async () => {
    const form = new FormData();
    const pdf = minimalPdf(['The refund window is thirty days from delivery.']);
    form.set('file', new File([new Uint8Array(pdf)], 'refunds.pdf', { type: 'application/pdf' }));
    const uploaded = await provider('/file', { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const { id } = (await uploaded.json()) as { id: string };
    await expect
      .poll(async () => ((await (await provider(`/file/${id}`)).json()) as { status: string }).status, {
        timeout: 20_000,
      })
      .toBe('done');
  });

  it('checks request bodies against the provider document it reads at run time', async () => {
    const res = await provider('/assistant', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'x', notAField: true }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('notAField');
  });
});
