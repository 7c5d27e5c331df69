// The console's API section: generate a named key (full, read-only or chosen scopes) or
// an MCP token, list them by prefix, revoke. The raw key is in the create answer only.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createCappedKey } from '../../core/accounts/accounts.ts';
import { listKeys, revokeAccountKey } from '../../core/accounts/key-list.ts';
import { SCOPES } from '../../core/accounts/scopes.ts';
import { requireAdmin } from '../../core/accounts/team.ts';
import { AppError } from '../../core/errors.ts';
import { userOf, type ConsoleContext } from '../context.ts';

const CreateKey = z
  .object({
    name: z.string().trim().min(1).max(80),
    kind: z.enum(['api', 'mcp']).default('api'),
    access: z.enum(['full', 'read_only', 'custom']).default('full'),
    scopes: z.array(z.enum(SCOPES)).max(SCOPES.length).optional(),
  })
  .strict();

const user = (action: string) => ({ config: { console: { access: 'user' as const, action } } });

export function registerKeyRoutes(api: FastifyInstance, { core }: ConsoleContext) {
  const db = core.store.db;

  api.get('/console/api/keys', { ...user('keys.list'), schema: { hide: true } }, async (request) => ({ keys: await listKeys(db, userOf(request).accountId) }));

  // Admins only: a key acts for the account, not for the person, and outlives their removal from
  // it, so a member who could make one would keep the account's access after being removed.
  api.post('/console/api/keys', { ...user('keys.create'), schema: { hide: true, body: CreateKey } }, async (request) => {
    requireAdmin(userOf(request), 'generates API keys and MCP tokens (you may revoke them)');
    const body = request.body as z.infer<typeof CreateKey>;
    if (body.access === 'custom' && !body.scopes?.length) throw new AppError('invalid_request', 'Choose at least one scope for a custom key.');
    return createCappedKey(core.store, userOf(request).accountId, core.config.SIGHTLINE_MAX_KEYS_PER_ACCOUNT, {
      name: body.name,
      kind: body.kind,
      readOnly: body.access === 'read_only',
      scopes: body.access === 'custom' ? body.scopes : undefined,
      activeOnly: true,
    });
  });

  api.post<{ Params: { id: string } }>('/console/api/keys/:id/revoke', { ...user('keys.revoke'), schema: { hide: true } }, async (request) => {
    await revokeAccountKey(db, userOf(request).accountId, request.params.id);
    return { key_id: request.params.id, revoked: true };
  });
}
