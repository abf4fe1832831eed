// GoTrue's OAuth client administration (/admin/oauth/clients, supabase-js `auth.admin.oauth.*`):
// register, list, read, update, delete and regenerate the secret of the clients of an OAuth 2.1
// authorization server. Service-role only (the routes check it). A confidential client's secret
// is 32 random bytes, shown in the answer that creates it (or regenerates it) and never again:
// only its SHA-256 is stored, as GoTrue does.
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '@engage/db';
import { z } from 'zod';
import { AuthError } from './errors.js';
import {
  checkAuthMethod,
  checkGrantTypes,
  checkName,
  checkRedirectUris,
  checkUri,
  GRANT_TYPES,
  type AuthMethod,
  invalid,
} from './oauth-client-rules.js';
import { parseBody } from './schemas.js';
import { isUuid } from './tokens.js';

type ClientType = 'public' | 'confidential';

const uriList = z.array(z.string().max(2048)).max(100);
const common = {
  client_name: z.string().max(4096).optional(),
  client_uri: z.string().max(4096).optional(),
  logo_uri: z.string().max(4096).optional(),
  redirect_uris: uriList.optional(),
  grant_types: z.array(z.string().max(64)).max(10).optional(),
  token_endpoint_auth_method: z.string().max(64).optional(),
};
const createBody = z.object({
  ...common,
  client_type: z.string().max(64).optional(),
  // supabase-js sends these; GoTrue accepts and ignores them (every client answers `code`).
  response_types: z.array(z.literal('code')).max(1).optional(),
  scope: z.string().max(1024).optional(),
});
const updateBody = z.object(common);

interface ClientRow {
  id: string;
  client_name: string;
  client_type: ClientType;
  token_endpoint_auth_method: AuthMethod;
  registration_type: 'manual' | 'dynamic';
  redirect_uris: string[];
  grant_types: string[];
  client_uri: string | null;
  logo_uri: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, client_name, client_type, token_endpoint_auth_method, registration_type,
  redirect_uris, grant_types, client_uri, logo_uri, created_at, updated_at`;

const methodFits = (type: ClientType, method: AuthMethod) => (type === 'public') === (method === 'none');

/** A new secret and the hash kept of it. */
function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: createHash('sha256').update(secret).digest('base64url') };
}

const iso = (d: Date) => new Date(d).toISOString();

/** GoTrue's client JSON; `client_secret` only when one was just made. */
function clientJson(row: ClientRow, secret?: string) {
  return {
    client_id: row.id,
    ...(secret ? { client_secret: secret } : {}),
    client_type: row.client_type,
    redirect_uris: row.redirect_uris,
    token_endpoint_auth_method: row.token_endpoint_auth_method,
    grant_types: row.grant_types,
    response_types: ['code'],
    ...(row.client_name ? { client_name: row.client_name } : {}),
    ...(row.client_uri ? { client_uri: row.client_uri } : {}),
    ...(row.logo_uri ? { logo_uri: row.logo_uri } : {}),
    registration_type: row.registration_type,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export type OAuthClientJson = ReturnType<typeof clientJson>;

const pageParam = (value: string | undefined, fallback: number, name: string, max: number) => {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw invalid(`Bad Pagination Parameters: ${name} must be a whole number from 1 to ${max}`);
  return Number(value);
};

/** Registers a client; a confidential one gets its secret in this answer only. */
async function createClient(db: Queryable, body: unknown) {
  const input = parseBody(createBody, body);
  const redirectUris = checkRedirectUris(input.redirect_uris, true) as string[];
  const grantTypes = checkGrantTypes(input.grant_types) ?? [...GRANT_TYPES];
  const name = checkName(input.client_name) ?? '';
  const clientUri = checkUri(input.client_uri, 'client_uri');
  const logoUri = checkUri(input.logo_uri, 'logo_uri');
  if (input.client_type && input.client_type !== 'public' && input.client_type !== 'confidential')
    throw invalid("client_type must be 'public' or 'confidential'");
  const method = checkAuthMethod(input.token_endpoint_auth_method);
  // GoTrue: the type is given, or follows from the method; confidential by default.
  const type: ClientType =
    (input.client_type as ClientType | undefined) || (method === 'none' ? 'public' : 'confidential');
  const authMethod = method ?? (type === 'public' ? 'none' : 'client_secret_basic');
  if (!methodFits(type, authMethod))
    throw invalid(`token_endpoint_auth_method '${authMethod}' is not valid for client_type '${type}'`);
  const secret = type === 'confidential' ? newSecret() : null;
  const { rows } = await db.query<ClientRow>(
    `insert into auth_oauth_clients (client_name, client_type, token_endpoint_auth_method,
       client_secret_hash, redirect_uris, grant_types, client_uri, logo_uri)
     values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8) returning ${COLUMNS}`,
    [
      name,
      type,
      authMethod,
      secret?.hash ?? null,
      JSON.stringify(redirectUris),
      JSON.stringify(grantTypes),
      clientUri || null,
      logoUri || null,
    ],
  );
  return clientJson(rows[0] as ClientRow, secret?.secret);
}

export function createOAuthClientsApi(db: Queryable) {
  async function load(id: string): Promise<ClientRow> {
    if (!isUuid(id)) throw invalid('invalid client_id format');
    const { rows } = await db.query<ClientRow>(`select ${COLUMNS} from auth_oauth_clients where id = $1`, [
      id,
    ]);
    const row = rows[0];
    if (!row) throw new AuthError(404, 'oauth_client_not_found', 'OAuth client not found');
    return row;
  }

  return {
    /** GET /admin/oauth/clients?page=&per_page= (newest first), with GoTrue's Link paging. */
    async list(query: { page?: string; per_page?: string }) {
      const page = pageParam(query.page, 1, 'page', 1_000_000);
      const perPage = pageParam(query.per_page, 50, 'per_page', 1000);
      const [{ rows }, count] = await Promise.all([
        db.query<ClientRow>(
          `select ${COLUMNS} from auth_oauth_clients order by created_at desc, id desc limit $1 offset $2`,
          [perPage, (page - 1) * perPage],
        ),
        db.query<{ n: number }>('select count(*)::int as n from auth_oauth_clients'),
      ]);
      const total = count.rows[0]?.n ?? 0;
      const last = Math.ceil(total / perPage);
      const links: string[] = [];
      if (page < last) links.push(`</admin/oauth/clients?page=${page + 1}&per_page=${perPage}>; rel="next"`);
      links.push(`</admin/oauth/clients?page=${last}&per_page=${perPage}>; rel="last"`);
      return {
        body: { clients: rows.map((r) => clientJson(r)), aud: 'authenticated' },
        total,
        link: links.join(', '),
      };
    },

    /** POST /admin/oauth/clients: 201 with the secret of a confidential client, shown this once. */
    create: (body: unknown) => createClient(db, body),

    /** GET /admin/oauth/clients/{id}: never the secret. */
    async get(id: string) {
      return clientJson(await load(id));
    },

    /** PUT /admin/oauth/clients/{id}: only the fields given change. */
    async update(id: string, body: unknown) {
      const input = parseBody(updateBody, body);
      const client = await load(id);
      const fields = {
        redirect_uris: checkRedirectUris(input.redirect_uris, false),
        grant_types: checkGrantTypes(input.grant_types),
        client_name: checkName(input.client_name),
        client_uri: checkUri(input.client_uri, 'client_uri'),
        logo_uri: checkUri(input.logo_uri, 'logo_uri'),
        token_endpoint_auth_method: checkAuthMethod(input.token_endpoint_auth_method),
      };
      if (Object.values(fields).every((v) => v === undefined)) throw invalid('No fields provided for update');
      const method = fields.token_endpoint_auth_method;
      if (method && !methodFits(client.client_type, method))
        throw invalid(
          `token_endpoint_auth_method '${method}' is not valid for client_type '${client.client_type}'`,
        );
      const { rows } = await db.query<ClientRow>(
        `update auth_oauth_clients set
           redirect_uris = coalesce($2::jsonb, redirect_uris),
           grant_types = coalesce($3::jsonb, grant_types),
           client_name = coalesce($4, client_name),
           client_uri = case when $5::text is null then client_uri else nullif($5, '') end,
           logo_uri = case when $6::text is null then logo_uri else nullif($6, '') end,
           token_endpoint_auth_method = coalesce($7, token_endpoint_auth_method),
           updated_at = now()
         where id = $1 returning ${COLUMNS}`,
        [
          client.id,
          fields.redirect_uris ? JSON.stringify(fields.redirect_uris) : null,
          fields.grant_types ? JSON.stringify(fields.grant_types) : null,
          fields.client_name ?? null,
          fields.client_uri ?? null,
          fields.logo_uri ?? null,
          method ?? null,
        ],
      );
      const row = rows[0];
      if (!row) throw new AuthError(404, 'oauth_client_not_found', 'OAuth client not found');
      return clientJson(row);
    },

    /** DELETE /admin/oauth/clients/{id} */
    async remove(id: string) {
      const client = await load(id);
      await db.query('delete from auth_oauth_clients where id = $1', [client.id]);
    },

    /** POST /admin/oauth/clients/{id}/regenerate_secret: the old secret stops working at once. */
    async regenerateSecret(id: string) {
      const client = await load(id);
      if (client.client_type !== 'confidential') throw invalid('Cannot regenerate secret for public client');
      const secret = newSecret();
      const { rows } = await db.query<ClientRow>(
        `update auth_oauth_clients set client_secret_hash = $2, updated_at = now() where id = $1
         returning ${COLUMNS}`,
        [client.id, secret.hash],
      );
      const row = rows[0];
      if (!row) throw new AuthError(404, 'oauth_client_not_found', 'OAuth client not found');
      return clientJson(row, secret.secret);
    },
  };
}

export type OAuthClientsApi = ReturnType<typeof createOAuthClientsApi>;
