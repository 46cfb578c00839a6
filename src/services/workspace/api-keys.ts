import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { API_KEY_NAME_MAX, looksLikeApiKey, mintApiKey } from '../../domain/api-key';
import { hashSecret } from '../../domain/api-token';
import type { Role } from '../../domain/roles';
import { knexOf } from '../../db/knex';
import { isoOrNull, iso } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import { invalid } from '../errors';
import { revokeCredential } from './revoke';
import { findMember, getOrganization } from './workspaces';

/** A key's `last_used_at` is written at most this often: a busy key costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Legacy API keys (docs/architecture.md, "Workspaces, roles and credentials"): a member's bearer key for the API-key surface. Any member may
 * hold one (what it may do is their role's business); the plaintext is in the answer to create
 * and nowhere else. With an `actor`, the audit entry is written in the same transaction.
 */
export async function createApiKey(orm: MikroORM, input: { organizationId: string; email: string; name?: string }, audit?: { actor: AuditActor }) {
  const name = (input.name ?? 'API key').trim();
  if (name.length === 0 || name.length > API_KEY_NAME_MAX) throw invalid(`name must be 1 to ${API_KEY_NAME_MAX} characters`);
  await getOrganization(orm, input.organizationId);
  const member = await findMember(orm, input.organizationId, input.email);
  const { plaintext, hash } = mintApiKey();
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    user_id: member.id,
    name,
    key_hash: hash,
    display_prefix: plaintext.slice(0, 9),
    created_at: new Date(),
  };
  await knexOf(orm).transaction(async (trx) => {
    await trx('api_keys').insert(row);
    if (audit) {
      const details = { name, prefix: row.display_prefix, holder: member.email };
      await recordAudit(
        trx,
        { organizationId: input.organizationId, actor: audit.actor, action: 'api_key.create', targetType: 'api_key', targetId: row.id, details },
        row.created_at,
      );
    }
  });
  return { id: row.id, key: plaintext, name };
}

/** Key metadata for a workspace (or one holder's keys in it), newest first; never the secret or its hash. */
export async function listApiKeys(orm: MikroORM, organizationId: string, opts: { userId?: string } = {}) {
  await getOrganization(orm, organizationId);
  const query = knexOf(orm)('api_keys as k')
    .join('users as u', 'u.id', 'k.user_id')
    .select('k.id', 'k.name', 'k.display_prefix', 'k.created_at', 'k.last_used_at', 'k.revoked_at', 'k.user_id', 'u.email')
    .where({ 'k.organization_id': organizationId })
    .orderBy('k.created_at', 'desc');
  if (opts.userId) query.andWhere({ 'k.user_id': opts.userId });
  const rows = await query;
  return rows.map((r) => ({
    id: r.id as string,
    name: r.name as string,
    prefix: r.display_prefix as string,
    user: { id: r.user_id as string, email: r.email as string },
    status: r.revoked_at ? 'revoked' : 'active',
    created_at: iso(r.created_at),
    last_used_at: isoOrNull(r.last_used_at),
    revoked_at: isoOrNull(r.revoked_at),
  }));
}

/** Revokes a key at once; revoking twice is harmless. */
export const revokeApiKey = (orm: MikroORM, id: string) => revokeCredential(orm, 'api_keys', id, { id: 'API key', thing: 'API key' });

/** Who a valid key speaks for: its member, as they are now (role rechecked on every request). */
export interface ApiKeyPrincipal {
  keyId: string;
  organizationId: string;
  userId: string;
  role: Role;
}

/**
 * The member a key speaks for, or undefined for a missing, unknown or revoked key, or one whose
 * holder left the workspace. The lookup is by hash, so the secret is never compared directly.
 */
export async function authenticateApiKey(orm: MikroORM, plaintext: string): Promise<ApiKeyPrincipal | undefined> {
  if (!looksLikeApiKey(plaintext)) return undefined;
  const knex = knexOf(orm);
  const row = await knex('api_keys as k')
    .join('memberships as m', function () {
      this.on('m.user_id', 'k.user_id').andOn('m.organization_id', 'k.organization_id');
    })
    .select('k.id', 'k.organization_id', 'k.user_id', 'k.last_used_at', 'm.role')
    .where({ 'k.key_hash': hashSecret(plaintext) })
    .whereNull('k.revoked_at')
    .first();
  if (!row) return undefined;
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > LAST_USED_RESOLUTION_MS) {
    await knex('api_keys').update({ last_used_at: new Date() }).where({ id: row.id });
  }
  return { keyId: row.id, organizationId: row.organization_id, userId: row.user_id, role: row.role as Role };
}
