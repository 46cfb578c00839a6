import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { API_TOKEN_MAX_DAYS, hashSecret, looksLikeApiToken, mintApiToken, type AccessLevel } from '../../domain/api-token';
import { planHasApiAccess, type Plan } from '../../domain/plans';
import { canManageApiTokens, type Role } from '../../domain/roles';
import { knexOf } from '../../db/knex';
import { iso, millis } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import { forbidden, invalid, notFound } from '../errors';
import { findMember, getOrganization } from './workspaces';
import { revokeCredential } from './revoke';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A token's optional label, so people can tell their tokens apart. */
export const API_TOKEN_NAME_MAX = 100;

/**
 * Creates a customer API token for a member; the plaintext is in the answer and nowhere else.
 * With an `actor`, the audit entry is written in the same transaction.
 */
export async function createApiToken(
  orm: MikroORM,
  input: { organizationId: string; email: string; access: AccessLevel; days: number; name?: string },
  audit?: { actor: AuditActor },
) {
  const name = input.name?.trim() || null;
  if (name !== null && name.length > API_TOKEN_NAME_MAX) throw invalid(`name must be at most ${API_TOKEN_NAME_MAX} characters`);
  if (!Number.isInteger(input.days) || input.days < 1 || input.days > API_TOKEN_MAX_DAYS) {
    throw invalid(`token lifetime must be a whole number of days from 1 to ${API_TOKEN_MAX_DAYS}`);
  }
  const org = await getOrganization(orm, input.organizationId);
  if (!planHasApiAccess(org.plan)) {
    throw forbidden(`the ${org.plan} plan does not include API access (PRO and BUSINESS do)`, 'plan_limit_reached');
  }
  const member = await findMember(orm, input.organizationId, input.email);
  if (!canManageApiTokens(member.role)) {
    throw forbidden(`${member.email} is ${member.role}; only an Account Admin or Billing Owner can create API tokens`);
  }
  if (!member.verified) throw forbidden(`${member.email} has not verified their account`);
  const { plaintext, hash } = mintApiToken();
  const now = new Date();
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    user_id: member.id,
    token_hash: hash,
    display_prefix: plaintext.slice(0, 8),
    name,
    access: input.access,
    expires_at: new Date(now.getTime() + input.days * DAY_MS),
    created_at: now,
  };
  await knexOf(orm).transaction(async (trx) => {
    await trx('api_tokens').insert(row);
    if (audit) {
      const details = { access: row.access, days: input.days, name, prefix: row.display_prefix, holder: member.email };
      await recordAudit(
        trx,
        { organizationId: input.organizationId, actor: audit.actor, action: 'api_token.create', targetType: 'api_token', targetId: row.id, details },
        now,
      );
    }
  });
  return { id: row.id, token: plaintext, access: row.access, expires_at: row.expires_at.toISOString() };
}

/** Token metadata for a workspace; never the secret or its hash. */
export async function listApiTokens(orm: MikroORM, organizationId: string) {
  await getOrganization(orm, organizationId);
  const rows = await knexOf(orm)('api_tokens as t')
    .join('users as u', 'u.id', 't.user_id')
    .select('t.id', 't.name', 't.display_prefix', 't.access', 't.expires_at', 't.revoked_at', 't.created_at', 't.user_id', 'u.email')
    .where({ 't.organization_id': organizationId })
    .orderBy('t.created_at', 'desc');
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id as string,
    name: r.name as string | null,
    prefix: r.display_prefix as string,
    access: r.access as AccessLevel,
    user: { id: r.user_id as string, email: r.email as string },
    status: r.revoked_at ? 'revoked' : millis(r.expires_at) <= now ? 'expired' : 'active',
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
    revoked_at: r.revoked_at ? iso(r.revoked_at) : null,
  }));
}

/** Revokes a token at once; revoking twice is harmless. */
export const revokeApiToken = (orm: MikroORM, id: string) => revokeCredential(orm, 'api_tokens', id, { id: 'token', thing: 'API token' });

/**
 * Revokes a credential of one workspace at once, with its audit entry in the same transaction.
 * Another workspace's credential is 404; `holderOnly` refuses (403) one held by someone else;
 * revoking twice answers the same and records nothing more.
 */
export async function revokeInWorkspace(
  orm: MikroORM,
  table: 'api_tokens' | 'api_keys',
  input: { organizationId: string; id: string; actor: AuditActor; holderOnly?: string },
): Promise<{ id: string; revoked: true }> {
  const thing = table === 'api_tokens' ? 'API token' : 'API key';
  return knexOf(orm).transaction(async (trx) => {
    const row = await trx(table)
      .select('id', 'user_id', 'display_prefix', 'revoked_at')
      .where({ id: input.id, organization_id: input.organizationId })
      .forUpdate()
      .first();
    if (!row) throw notFound(`${thing} ${input.id} not found`);
    if (input.holderOnly && row.user_id !== input.holderOnly)
      throw forbidden(`only an Account Admin or Billing Owner may revoke another member's ${thing}`, 'forbidden');
    if (!row.revoked_at) {
      await trx(table).update({ revoked_at: new Date() }).where({ id: input.id });
      const action = table === 'api_tokens' ? 'api_token.revoke' : 'api_key.revoke';
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: input.actor,
        action,
        targetType: action.split('.')[0],
        targetId: input.id,
        details: { prefix: row.display_prefix },
      });
    }
    return { id: input.id, revoked: true as const };
  });
}

/** Who a valid token speaks for, as rechecked on every request. */
export interface ApiPrincipal {
  tokenId: string;
  organizationId: string;
  userId: string;
  access: AccessLevel;
}

export type AuthOutcome = { ok: true; principal: ApiPrincipal } | { ok: false; reason: 'invalid_token' } | { ok: false; reason: 'forbidden'; message: string };

/**
 * Rechecks everything docs/architecture.md, "Workspaces, roles and credentials" asks on every request, in one query: expiry, revocation,
 * verification, role and plan. The lookup is by hash, so the secret is never compared directly.
 */
export async function authenticateApiToken(orm: MikroORM, plaintext: string): Promise<AuthOutcome> {
  if (!looksLikeApiToken(plaintext)) return { ok: false, reason: 'invalid_token' };
  const row = await knexOf(orm)('api_tokens as t')
    .join('users as u', 'u.id', 't.user_id')
    .join('organizations as o', 'o.id', 't.organization_id')
    .leftJoin('memberships as m', function () {
      this.on('m.user_id', 't.user_id').andOn('m.organization_id', 't.organization_id');
    })
    .select('t.id', 't.organization_id', 't.user_id', 't.access', 't.expires_at', 't.revoked_at', 'u.verified', 'o.plan', 'm.role')
    .where({ 't.token_hash': hashSecret(plaintext) })
    .first();
  if (!row || row.revoked_at || millis(row.expires_at) <= Date.now()) return { ok: false, reason: 'invalid_token' };
  if (!row.verified) return { ok: false, reason: 'forbidden', message: 'the account that owns this token is not verified' };
  if (!row.role || !canManageApiTokens(row.role as Role)) {
    return { ok: false, reason: 'forbidden', message: 'the owner of this token is no longer an Account Admin or Billing Owner' };
  }
  if (!planHasApiAccess(row.plan as Plan)) {
    return { ok: false, reason: 'forbidden', message: `the workspace's ${row.plan} plan does not include API access` };
  }
  return {
    ok: true,
    principal: { tokenId: row.id, organizationId: row.organization_id, userId: row.user_id, access: row.access },
  };
}
