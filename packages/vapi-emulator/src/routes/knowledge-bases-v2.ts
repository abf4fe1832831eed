/**
 * /v2/knowledge-base: bases with their files and a query tool created with each (`toolId`, to attach
 * via model.toolIds). A file attached is 'indexing' until the processing delay has passed and the
 * upload itself has been processed (knowledge/file-processing.ts), then 'ready', or 'failed' when the
 * file could not be read: computed when read, from the file's own state.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { EmulatorContext } from '../context.js';
import { checkBody, checkQuery } from '../contract.js';
import { iso } from '../db.js';
import { fail, jsonBody, parseWith } from '../http.js';
import { EMULATOR_ORG_ID } from '../seed.js';
import { jsonStore } from '../store.js';

interface BaseRow {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  tool_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

interface FileRow {
  id: string;
  knowledge_base_id: string;
  file_id: string;
  file_name: string | null;
  mimetype: string | null;
  bytes: number | null;
  index_ok: boolean;
  ready_at: Date | string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The uploaded file's own state, when it still exists. */
interface UploadState {
  parse_ok: boolean;
  processed_at: Date | string | null;
}

/** The attached files of a base with their uploads' state. */
const FILES_OF_BASE = `select k.*, f.parse_ok as upload_ok, f.processed_at as upload_processed_at, f.id as upload_id
  from emulator_knowledge_base_v2_files k left join emulator_files f on f.id = k.file_id
  where k.knowledge_base_id = $1 order by k.created_at, k.id`;
type JoinedRow = FileRow & {
  upload_ok: boolean | null;
  upload_processed_at: Date | string | null;
  upload_id: string | null;
};
const uploadOf = (row: JoinedRow): UploadState | undefined =>
  row.upload_id === null ? undefined : { parse_ok: row.upload_ok!, processed_at: row.upload_processed_at };

const createSchema = z.strictObject({
  name: z.string().min(1).max(80),
  description: z.string().max(1000).nullable().optional(),
});
const updateSchema = createSchema.partial();
const attachSchema = z.strictObject({ fileId: z.string().min(1) });
const listSchema = z.strictObject({ limit: z.coerce.number().int().min(0).max(1000).default(100) });

const toBase = (row: BaseRow) => ({
  id: row.id,
  orgId: row.org_id,
  name: row.name,
  ...(row.description !== null ? { description: row.description } : {}),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
/** A deleted upload keeps the state it had when attached. */
const fileJson = (ctx: EmulatorContext, row: FileRow, upload?: UploadState) => ({
  id: row.id,
  knowledgeBaseV2Id: row.knowledge_base_id,
  fileId: row.file_id,
  ...(row.file_name !== null ? { fileName: row.file_name } : {}),
  ...(row.mimetype !== null ? { mimetype: row.mimetype } : {}),
  ...(row.bytes !== null ? { bytes: row.bytes } : {}),
  status:
    ctx.now().getTime() < new Date(row.ready_at).getTime() || upload?.processed_at === null
      ? ('indexing' as const)
      : (upload?.parse_ok ?? row.index_ok)
        ? ('ready' as const)
        : ('failed' as const),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});
const findBaseRow = async (db: EmulatorContext['db'], id: string) => {
  const { rows } = await db.query<BaseRow>('select * from emulator_knowledge_bases_v2 where id = $1', [id]);
  return rows[0] ?? fail(404, `Knowledge base ${id} not found`);
};
/** Indexing ends the processing delay from now, and never before the upload itself is processed. */
const indexingOf = async (ctx: EmulatorContext, fileId: string) => {
  const { rows } = await ctx.db.query<{
    name: string;
    mimetype: string;
    bytes: number;
    parse_ok: boolean;
    processed_at: Date | string | null;
    ready_at: Date | string;
  }>('select name, mimetype, bytes, parse_ok, processed_at, ready_at from emulator_files where id = $1', [
    fileId,
  ]);
  const file = rows[0] ?? fail(404, `File ${fileId} not found`);
  const now = ctx.now();
  const readyAt = new Date(
    Math.max(now.getTime() + ctx.processingDelayMs, new Date(file.ready_at).getTime()),
  );
  return { file, now, readyAt };
};

export function knowledgeBaseV2Routes(ctx: EmulatorContext): Hono {
  const { db } = ctx;
  const tools = jsonStore(ctx, 'emulator_tools', 'Tool');
  const app = new Hono();

  const body = async (c: Context, route: Parameters<typeof checkBody>[0]) => {
    const value = await jsonBody(c);
    checkBody(route, value);
    return value;
  };
  const toFile = (row: FileRow, upload?: UploadState) => fileJson(ctx, row, upload);
  const findBase = (id: string) => findBaseRow(db, id);
  const indexing = (fileId: string) => indexingOf(ctx, fileId);

  app.post('/v2/knowledge-base', async (c) => {
    const input = parseWith(createSchema, await body(c, 'POST /v2/knowledge-base'));
    const id = ctx.newId();
    // The base's search tool, provisioned with it as the provider does.
    const tool = await tools.create({
      type: 'knowledgeBase',
      knowledgeBaseId: id,
      function: { name: `knowledge_base_${id.replace(/[^a-zA-Z0-9_-]/g, '').slice(0, 40)}` },
    });
    const { rows } = await db.query<BaseRow>(
      `insert into emulator_knowledge_bases_v2 (id, org_id, name, description, tool_id, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $6) returning *`,
      [id, EMULATOR_ORG_ID, input.name, input.description ?? null, tool.id, ctx.now()],
    );
    const row = rows[0]!;
    return c.json(toBase(row), 201);
  });

  app.get('/v2/knowledge-base', async (c) => {
    checkQuery('GET /v2/knowledge-base', c.req.query());
    const { limit } = parseWith(listSchema, c.req.query());
    const { rows } = await db.query<BaseRow>(
      'select * from emulator_knowledge_bases_v2 order by created_at desc, id limit $1',
      [limit],
    );
    return c.json(rows.map(toBase));
  });

  app.get('/v2/knowledge-base/:id', async (c) => {
    const base = await findBase(c.req.param('id'));
    const { rows } = await db.query<JoinedRow>(FILES_OF_BASE, [base.id]);
    return c.json({ ...toBase(base), files: rows.map((r) => toFile(r, uploadOf(r))), toolId: base.tool_id });
  });

  app.patch('/v2/knowledge-base/:id', async (c) => {
    const changes = parseWith(updateSchema, await body(c, 'PATCH /v2/knowledge-base/{id}'));
    const base = await findBase(c.req.param('id'));
    const { rows } = await db.query<BaseRow>(
      `update emulator_knowledge_bases_v2 set name = $2, description = $3, updated_at = $4 where id = $1 returning *`,
      [
        base.id,
        changes.name ?? base.name,
        changes.description === undefined ? base.description : changes.description,
        ctx.now(),
      ],
    );
    return c.json(toBase(rows[0]!));
  });

  app.delete('/v2/knowledge-base/:id', async (c) => {
    const { rows } = await db.query<BaseRow>(
      'delete from emulator_knowledge_bases_v2 where id = $1 returning *',
      [c.req.param('id')],
    );
    const base = rows[0] ?? fail(404, `Knowledge base ${c.req.param('id')} not found`);
    // Its search tool goes with it; an assistant that still names it gets the provider's 404 later.
    if (base.tool_id) await db.query('delete from emulator_tools where id = $1', [base.tool_id]);
    return c.json(toBase(base));
  });

  app.get('/v2/knowledge-base/:id/file', async (c) => {
    const base = await findBase(c.req.param('id'));
    const { rows } = await db.query<JoinedRow>(FILES_OF_BASE, [base.id]);
    return c.json(rows.map((r) => toFile(r, uploadOf(r))));
  });

  app.post('/v2/knowledge-base/:id/file', async (c) => {
    const { fileId } = parseWith(attachSchema, await body(c, 'POST /v2/knowledge-base/{id}/file'));
    const base = await findBase(c.req.param('id'));
    const { file, now, readyAt } = await indexing(fileId);
    const { rows } = await db.query<FileRow>(
      `insert into emulator_knowledge_base_v2_files
         (id, knowledge_base_id, file_id, file_name, mimetype, bytes, index_ok, ready_at, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
       on conflict (knowledge_base_id, file_id) do nothing
       returning *`,
      [ctx.newId(), base.id, fileId, file.name, file.mimetype, file.bytes, file.parse_ok, readyAt, now],
    );
    if (!rows[0]) fail(400, `File ${fileId} is already attached to knowledge base ${base.id}`);
    return c.json(toFile(rows[0], file), 201);
  });

  app.delete('/v2/knowledge-base/:id/file/:fileId', async (c) => {
    const base = await findBase(c.req.param('id'));
    const { rows } = await db.query<FileRow>(
      `delete from emulator_knowledge_base_v2_files where knowledge_base_id = $1 and file_id = $2 returning *`,
      [base.id, c.req.param('fileId')],
    );
    return c.json(
      toFile(rows[0] ?? fail(404, `File ${c.req.param('fileId')} is not in knowledge base ${base.id}`)),
    );
  });

  // Indexes the file again from now: a file that failed because its upload was broken fails again.
  app.post('/v2/knowledge-base/:id/file/:fileId/retry', async (c) => {
    const base = await findBase(c.req.param('id'));
    const { file, now, readyAt } = await indexing(c.req.param('fileId'));
    const { rows } = await db.query<FileRow>(
      `update emulator_knowledge_base_v2_files set index_ok = $3, ready_at = $4, updated_at = $5
       where knowledge_base_id = $1 and file_id = $2 returning *`,
      [base.id, c.req.param('fileId'), file.parse_ok, readyAt, now],
    );
    return c.json(
      toFile(rows[0] ?? fail(404, `File ${c.req.param('fileId')} is not in knowledge base ${base.id}`), file),
      201,
    );
  });

  return app;
}
