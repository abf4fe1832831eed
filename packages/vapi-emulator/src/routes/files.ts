import { contentProblem, extensionOf } from '@engage/vapi-contract';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { servedType, SUPPORTED_TYPES } from '../content-check.js';
import type { EmulatorContext } from '../context.js';
import { checkBody, checkQuery } from '../contract.js';
import { iso, json } from '../db.js';
import { fail, jsonBody, parseWith, publicBase } from '../http.js';
import { EMULATOR_ORG_ID } from '../seed.js';

interface FileRow {
  id: string;
  org_id: string;
  name: string;
  original_name: string;
  mimetype: string;
  bytes: number;
  purpose: string | null;
  metadata: unknown;
  parse_ok: boolean;
  processed_at: Date | string | null;
  ready_at: Date | string;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS =
  'id, org_id, name, original_name, mimetype, bytes, purpose, metadata, parse_ok, processed_at, ready_at, created_at, updated_at';

const purposeSchema = z.enum(['assistant', 'composer-attachment', 'knowledge-base-v2']);
const metadataSchema = z
  .string()
  .max(4096, 'metadata must be at most 4096 characters')
  .transform((text, ctx) => {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'metadata must be a JSON object' });
    return z.NEVER;
  });
/** UpdateFileDTO: name 1–40 characters (the document's limits are checked first, see contract.ts). */
const renameSchema = z.strictObject({ name: z.string().trim().min(1, 'name must not be empty').max(40) });
/** CreateFileDTO's multipart fields. */
const FORM_FIELDS = new Set(['file', 'purpose', 'metadata']);

/**
 * Processing until the extraction worker has settled the file (knowledge/file-processing.ts) and the
 * provider's processing delay (ready_at) has passed; then done, or failed when it could not be read.
 */
function status(row: FileRow, now: Date): 'processing' | 'done' | 'failed' {
  if (row.processed_at === null || now.getTime() < new Date(row.ready_at).getTime()) return 'processing';
  return row.parse_ok ? 'done' : 'failed';
}

/** The provider's File for a stored upload; its URL on the origin the caller sees. */
const fileJson = (ctx: EmulatorContext, row: FileRow, origin: string) => ({
  id: row.id,
  orgId: row.org_id,
  object: 'file' as const,
  status: status(row, ctx.now()),
  name: row.name,
  originalName: row.original_name,
  bytes: row.bytes,
  mimetype: row.mimetype,
  ...(row.purpose ? { purpose: row.purpose } : {}),
  ...(row.metadata ? { metadata: json<Record<string, unknown>>(row.metadata) } : {}),
  path: `files/${row.id}/${row.original_name}`,
  url: `${origin}/storage/${row.id}/${encodeURIComponent(row.original_name)}`,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

async function findFile(db: EmulatorContext['db'], id: string) {
  const { rows } = await db.query<FileRow>(`select ${COLUMNS} from emulator_files where id = $1`, [id]);
  return rows[0] ?? fail(404, `File ${id} not found`);
}

export function filesRoutes(ctx: EmulatorContext): Hono {
  const { db } = ctx;
  const app = new Hono();

  const toFile = (row: FileRow, origin: string) => fileJson(ctx, row, origin);
  const base = (c: Parameters<typeof publicBase>[0], suffix: string) => {
    const b = publicBase(c, suffix, ctx.forwardedHeaderSecret);
    return `${b.origin}${b.prefix}`;
  };
  const find = (id: string) => findFile(db, id);

  app.post(
    '/file',
    bodyLimit({
      // The multipart envelope adds a little to the file itself.
      maxSize: ctx.maxFileBytes + 64 * 1024,
      // The rest of the body is never read, so the connection cannot carry another request.
      onError: () =>
        fail(413, `The file is too large: at most ${ctx.maxFileBytes} bytes are accepted.`, {
          Connection: 'close',
        }),
    }),
    async (c) => {
      if (!(c.req.header('content-type') ?? '').includes('multipart/form-data'))
        fail(400, 'Invalid file: send multipart/form-data with the file in the field "file".');
      let form: FormData;
      try {
        form = await c.req.raw.formData();
      } catch {
        fail(400, 'Invalid file: the multipart body could not be read.');
      }
      const unknown = [...new Set(form.keys())].filter((k) => !FORM_FIELDS.has(k));
      if (unknown.length)
        fail(
          400,
          unknown.map((k) => `property ${k} should not exist`),
        );
      const part = form.get('file');
      if (!(part instanceof File)) fail(400, 'Invalid file: the form field "file" is missing.');
      const name = part.name || 'file';
      if (name.length > 255) fail(400, 'Invalid file: the file name may be at most 255 characters.');
      const ext = extensionOf(name);
      const mimeByExt = SUPPORTED_TYPES[ext];
      if (!mimeByExt)
        fail(
          400,
          `Invalid file: ${ext || 'files without an extension'} is not supported. Supported: ${Object.keys(SUPPORTED_TYPES).join(', ')}.`,
        );
      if (part.size > ctx.maxFileBytes)
        fail(413, `The file is too large: at most ${ctx.maxFileBytes} bytes are accepted.`);
      const purposeField = form.get('purpose');
      const purpose =
        purposeField === null || purposeField === '' ? null : parseWith(purposeSchema, purposeField);
      const metadataField = form.get('metadata');
      const metadata =
        metadataField === null || metadataField === '' ? null : parseWith(metadataSchema, metadataField);

      const bytes = new Uint8Array(await part.arrayBuffer());
      const now = ctx.now();
      const readyAt = new Date(now.getTime() + ctx.processingDelayMs);
      const type =
        part.type && part.type !== 'application/octet-stream' ? part.type.split(';')[0]! : mimeByExt;
      // A file failing the content check is settled at once; any other is read by the worker.
      const problem = contentProblem(name, bytes);
      const { rows } = await db.query<FileRow>(
        `insert into emulator_files
           (id, org_id, name, original_name, mimetype, bytes, purpose, metadata, content, parse_ok,
            failure_reason, processed_at, ready_at, created_at, updated_at)
         values ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
         returning ${COLUMNS}`,
        [
          ctx.newId(),
          EMULATOR_ORG_ID,
          name,
          type,
          bytes.length,
          purpose,
          metadata ? JSON.stringify(metadata) : null,
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          problem === null,
          problem,
          problem === null ? null : now,
          readyAt,
          now,
        ],
      );
      const row = rows[0]!;
      if (problem === null) ctx.files.enqueue(row.id);
      else ctx.files.refused(row.id, problem);
      return c.json(toFile(row, base(c, '/file')), 201);
    },
  );

  app.get('/file', async (c) => {
    checkQuery('GET /file', c.req.query(), { optional: ctx.requireFilePurpose ? [] : ['purpose'] });
    const purpose = c.req.query('purpose');
    const { rows } = purpose
      ? await db.query<FileRow>(
          `select ${COLUMNS} from emulator_files where purpose = $1 order by created_at desc`,
          [purpose],
        )
      : await db.query<FileRow>(`select ${COLUMNS} from emulator_files order by created_at desc`);
    const origin = base(c, '/file');
    return c.json(rows.map((r) => toFile(r, origin)));
  });

  app.get('/file/:id', async (c) => c.json(toFile(await find(c.req.param('id')), base(c, '/file/:id'))));

  app.patch('/file/:id', async (c) => {
    const input = await jsonBody(c);
    checkBody('PATCH /file/{id}', input);
    const { name } = parseWith(renameSchema, input);
    const { rows } = await db.query<FileRow>(
      `update emulator_files set name = $2, updated_at = $3 where id = $1 returning ${COLUMNS}`,
      [c.req.param('id'), name, ctx.now()],
    );
    const row = rows[0] ?? fail(404, `File ${c.req.param('id')} not found`);
    return c.json(toFile(row, base(c, '/file/:id')));
  });

  app.delete('/file/:id', async (c) => {
    const { rows } = await db.query<FileRow>(
      `delete from emulator_files where id = $1 returning ${COLUMNS}`,
      [c.req.param('id')],
    );
    const row = rows[0] ?? fail(404, `File ${c.req.param('id')} not found`);
    return c.json(toFile(row, base(c, '/file/:id')));
  });

  return app;
}

/**
 * The stored bytes at the file's `url`. Like the provider's storage links, this needs no key: the
 * id is a random UUID. Served as an attachment, never rendered inline.
 */
export function storageRoutes(ctx: EmulatorContext): Hono {
  return new Hono().get('/storage/:id/:name', async (c) => {
    const { rows } = await ctx.db.query<{ content: Uint8Array; mimetype: string; original_name: string }>(
      'select content, mimetype, original_name from emulator_files where id = $1',
      [c.req.param('id')],
    );
    const row = rows[0] ?? fail(404, 'File not found');
    const bytes = new Uint8Array(row.content);
    return c.body(bytes, 200, {
      'Content-Type': servedType(row.mimetype, row.original_name),
      'Content-Length': String(bytes.length),
      'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(row.original_name)}`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
  });
}
