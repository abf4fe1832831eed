import { testDbTargets } from '@engage/db/testing';
import { dataOf, fileUpload, type QueryTool, type VapiClient, type VapiFile } from '@engage/vapi-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_ASSISTANT_IDS } from '@engage/vapi-emulator';
import { apiError, DELAY, file, keys, useHttpEmulator } from './routes-harness.js';

for (const target of testDbTargets()) {
  describe(`the client against the emulator over HTTP: tools, knowledge bases and assistants (${target.name})`, () => {
    const h = useHttpEmulator(target);
    const { clock } = h;
    let baseUrl: string;
    let vapi: VapiClient;
    beforeAll(() => void ({ baseUrl, vapi } = h));

    describe('tools', () => {
      let done: VapiFile;
      beforeAll(async () => {
        done = await dataOf(vapi.POST('/file', fileUpload(file('Knowledge.', 'kb.txt'))));
        clock.advance(DELAY);
      });

      it('creates a query tool over existing files and reads it back', async () => {
        const tool = (await dataOf(
          vapi.POST('/tool', {
            body: {
              type: 'query',
              function: { name: 'product-kb' },
              knowledgeBases: [
                { provider: 'google', name: 'product-kb', description: 'Products', fileIds: [done.id] },
              ],
            },
          }),
        )) as QueryTool;
        expect(tool).toMatchObject({ type: 'query', function: { name: 'product-kb' } });
        expect(tool.knowledgeBases[0]?.fileIds).toEqual([done.id]);
        expect(await dataOf(vapi.GET('/tool/{id}', { params: { path: { id: tool.id } } }))).toEqual(tool);
        expect((await dataOf(vapi.GET('/tool'))).map((t) => t.id)).toContain(tool.id);
      });

      it.each([
        [
          'a provider other than google',
          { provider: 'trieve' },
          'provider must be one of the following values: google',
        ],
        ['no fileIds', { fileIds: [] }, 'fileIds must contain at least 1 element'],
        ['an unknown file id', { fileIds: ['nope'] }, 'file nope does not exist'],
        ['no description', { description: '' }, 'description must not be empty'],
      ])('refuses a query tool with %s (400)', async (_label, change, message) => {
        const error = await apiError(
          dataOf(
            vapi.POST('/tool', {
              body: {
                type: 'query',
                function: { name: 'kb' },
                knowledgeBases: [
                  {
                    provider: 'google',
                    name: 'kb',
                    description: 'd',
                    fileIds: [done.id],
                    ...change,
                  } as never,
                ],
              },
            }),
          ),
        );
        expect(error.status).toBe(400);
        expect(Array.isArray((error.body as { message: unknown }).message)).toBe(true);
        expect(error.message).toContain(message);
      });

      it('accepts POST /tool/ with the trailing slash the import tool uses', async () => {
        const res = await fetch(`${baseUrl}/tool/`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${keys.privateKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            type: 'query',
            function: { name: 'slash' },
            knowledgeBases: [{ provider: 'google', name: 'slash', description: 'd', fileIds: [done.id] }],
          }),
        });
        expect(res.status).toBe(201);
      });

      it('updates a tool with PATCH, validating the merged tool and keeping its type', async () => {
        const tool = (await dataOf(
          vapi.POST('/tool', {
            body: {
              type: 'query',
              function: { name: 'patched' },
              knowledgeBases: [{ provider: 'google', name: 'kb', description: 'd', fileIds: [done.id] }],
            },
          }),
        )) as QueryTool;
        const updated = (await dataOf(
          vapi.PATCH('/tool/{id}', {
            params: { path: { id: tool.id } },
            body: {
              type: 'query',
              knowledgeBases: [
                { provider: 'google', name: 'kb', description: 'Renamed', fileIds: [done.id] },
              ],
            },
          }),
        )) as QueryTool;
        expect(updated).toMatchObject({ id: tool.id, type: 'query', function: { name: 'patched' } });
        expect(updated.knowledgeBases[0]?.description).toBe('Renamed');
        expect(await dataOf(vapi.GET('/tool/{id}', { params: { path: { id: tool.id } } }))).toEqual(updated);
        const unknownFile = await apiError(
          dataOf(
            vapi.PATCH('/tool/{id}', {
              params: { path: { id: tool.id } },
              body: {
                type: 'query',
                knowledgeBases: [{ provider: 'google', name: 'kb', description: 'd', fileIds: ['nope'] }],
              },
            }),
          ),
        );
        expect(unknownFile.status).toBe(400);
        expect(unknownFile.message).toContain('file nope does not exist');
        expect(
          (
            await apiError(
              dataOf(
                vapi.PATCH('/tool/{id}', { params: { path: { id: tool.id } }, body: { type: 'function' } }),
              ),
            )
          ).status,
        ).toBe(400);
        expect(await dataOf(vapi.GET('/tool/{id}', { params: { path: { id: tool.id } } }))).toEqual(updated);
      });

      it('deletes a tool', async () => {
        const tool = await dataOf(
          vapi.POST('/tool', { body: { type: 'function', function: { name: 'f' } } }),
        );
        await dataOf(vapi.DELETE('/tool/{id}', { params: { path: { id: tool.id } } }));
        expect(
          (await apiError(dataOf(vapi.GET('/tool/{id}', { params: { path: { id: tool.id } } })))).status,
        ).toBe(404);
      });
    });

    describe('knowledge bases', () => {
      it('creates, lists, reads, updates and deletes a knowledge base', async () => {
        const kb = await dataOf(
          vapi.POST('/knowledge-base', {
            body: {
              provider: 'custom-knowledge-base',
              name: 'Docs',
              server: { url: 'https://kb.example.com/search' },
            },
          }),
        );
        expect(kb).toMatchObject({ id: expect.any(String), provider: 'custom-knowledge-base', name: 'Docs' });
        expect((await dataOf(vapi.GET('/knowledge-base'))).map((k) => k.id)).toContain(kb.id);
        expect(await dataOf(vapi.GET('/knowledge-base/{id}', { params: { path: { id: kb.id } } }))).toEqual(
          kb,
        );
        const renamed = await dataOf(
          vapi.PATCH('/knowledge-base/{id}', { params: { path: { id: kb.id } }, body: { name: 'Manuals' } }),
        );
        expect(renamed).toMatchObject({ id: kb.id, provider: 'custom-knowledge-base', name: 'Manuals' });
        expect(await dataOf(vapi.GET('/knowledge-base/{id}', { params: { path: { id: kb.id } } }))).toEqual(
          renamed,
        );
        await dataOf(vapi.DELETE('/knowledge-base/{id}', { params: { path: { id: kb.id } } }));
        expect(
          (await apiError(dataOf(vapi.GET('/knowledge-base/{id}', { params: { path: { id: kb.id } } }))))
            .status,
        ).toBe(404);
      });

      it('refuses an unknown provider and a bad server URL (400), on create and on update', async () => {
        const badProvider = await apiError(
          dataOf(vapi.POST('/knowledge-base', { body: { provider: 'google', name: 'x' } })),
        );
        expect(badProvider.status).toBe(400);
        expect(badProvider.message).toContain('provider must be one of the following values');
        const kb = await dataOf(vapi.POST('/knowledge-base', { body: { provider: 'trieve', name: 'T' } }));
        expect(
          (
            await apiError(
              dataOf(
                vapi.PATCH('/knowledge-base/{id}', {
                  params: { path: { id: kb.id } },
                  body: { server: { url: 'not a url' } },
                }),
              ),
            )
          ).status,
        ).toBe(400);
        expect(await dataOf(vapi.GET('/knowledge-base/{id}', { params: { path: { id: kb.id } } }))).toEqual(
          kb,
        );
      });
    });

    describe('assistants', () => {
      it('seeds the three landing-page assistants with a model and a voice', async () => {
        for (const id of Object.values(SEEDED_ASSISTANT_IDS)) {
          const assistant = await dataOf(vapi.GET('/assistant/{id}', { params: { path: { id: id } } }));
          expect(assistant.model).toMatchObject({ provider: 'openai', model: 'gpt-4o', toolIds: [] });
          expect(assistant.voice?.provider).toBeTruthy();
        }
        expect(
          (
            await dataOf(
              vapi.GET('/assistant/{id}', { params: { path: { id: SEEDED_ASSISTANT_IDS.index } } }),
            )
          ).name,
        ).toBe('CTO/CIO Assistant');
        expect(
          (
            await dataOf(
              vapi.GET('/assistant/{id}', { params: { path: { id: SEEDED_ASSISTANT_IDS.ediscovery } } }),
            )
          ).name,
        ).toBe('Sales Engineer Assistant');
        // One name everywhere: the site calls the onboarding page's assistant the same.
        expect(
          (
            await dataOf(
              vapi.GET('/assistant/{id}', { params: { path: { id: SEEDED_ASSISTANT_IDS.onboarding } } }),
            )
          ).name,
        ).toBe('Project Onboarding Assistant');
      });

      it('attaches a tool the way the import tool does: the whole model with toolIds, other fields kept', async () => {
        const kb = await dataOf(vapi.POST('/file', fileUpload(file('x', 'x.md'))));
        const tool = await dataOf(
          vapi.POST('/tool', {
            body: {
              type: 'query',
              function: { name: 'kb' },
              knowledgeBases: [{ provider: 'google', name: 'kb', description: 'd', fileIds: [kb.id] }],
            },
          }),
        );
        const created = await dataOf(
          vapi.POST('/assistant', {
            body: {
              name: 'Patch me',
              firstMessage: 'Hi',
              model: {
                provider: 'openai',
                model: 'gpt-4o',
                messages: [{ role: 'system', content: 'Be brief.' }],
              },
              voice: { provider: 'vapi', voiceId: 'Elliot' },
            },
          }),
        );
        const current = await dataOf(vapi.GET('/assistant/{id}', { params: { path: { id: created.id } } }));
        const updated = await dataOf(
          vapi.PATCH('/assistant/{id}', {
            params: { path: { id: created.id } },
            body: {
              model: {
                ...current.model!,
                temperature: 0.2,
                toolIds: [...(current.model?.toolIds ?? []), tool.id],
              },
            },
          }),
        );
        expect(updated.model).toMatchObject({
          provider: 'openai',
          model: 'gpt-4o',
          temperature: 0.2,
          toolIds: [tool.id],
          messages: [{ role: 'system', content: 'Be brief.' }],
        });
        expect(updated).toMatchObject({ name: 'Patch me', firstMessage: 'Hi', voice: { voiceId: 'Elliot' } });
        expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(updated.createdAt));
        expect(
          (await dataOf(vapi.GET('/assistant/{id}', { params: { path: { id: created.id } } }))).model
            ?.toolIds,
        ).toEqual([tool.id]);

        // A PATCH with a model replaces the model whole, as the provider warns.
        const replaced = await dataOf(
          vapi.PATCH('/assistant/{id}', {
            params: { path: { id: created.id } },
            body: {
              model: { provider: 'openai', model: 'gpt-4o-mini' },
            },
          }),
        );
        expect(replaced.model).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
      });

      it('refuses toolIds that do not exist and server-owned fields', async () => {
        const a = await apiError(
          dataOf(
            vapi.PATCH('/assistant/{id}', {
              params: { path: { id: SEEDED_ASSISTANT_IDS.index } },
              body: {
                model: { provider: 'openai', model: 'gpt-4o', toolIds: ['missing-tool'] },
              },
            }),
          ),
        );
        expect(a.status).toBe(400);
        expect(a.message).toContain('tool missing-tool does not exist');
        const b = await apiError(dataOf(vapi.POST('/assistant', { body: { id: 'mine', name: 'x' } })));
        expect(b.message).toContain('property id should not exist');
      });

      it('replaces with PUT, deletes, and answers 404 afterwards', async () => {
        const a = await dataOf(vapi.POST('/assistant', { body: { name: 'Temp', firstMessage: 'Hello' } }));
        // PUT is not in the document (so not in the client); the provider replaces the whole assistant.
        const res = await fetch(`${baseUrl}/assistant/${a.id}`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${keys.privateKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'Replaced' }),
        });
        const put = (await res.json()) as { firstMessage?: string; name?: string };
        expect(put.firstMessage).toBeUndefined();
        expect(put.name).toBe('Replaced');
        await dataOf(vapi.DELETE('/assistant/{id}', { params: { path: { id: a.id } } }));
        expect(
          (await apiError(dataOf(vapi.GET('/assistant/{id}', { params: { path: { id: a.id } } })))).status,
        ).toBe(404);
      });
    });
  });
}
