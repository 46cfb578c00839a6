import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { hashSecret } from '../../domain/api-token';
import type { Plan } from '../../domain/plans';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import { forbidden, notFound } from '../errors';
import { getOrganization } from '../workspace/workspaces';
import { planHasScim, scimPlanMessage } from './plan';

/** The workspace's SCIM bearer token: one at a time, shown once, stored as a SHA-256 hash like API tokens. */

export const SCIM_TOKEN_PREFIX = 'klxscim_';

/** Only token-shaped strings are hashed and looked up. */
export const looksLikeScimToken = (value: string): boolean => /^klxscim_[A-Za-z0-9_-]{43}$/.test(value);

/** A fresh token: the plaintext (answered once) and its hash (stored). */
export function mintScimToken(): { plaintext: string; hash: string } {
  const plaintext = SCIM_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { plaintext, hash: hashSecret(plaintext) };
}

/**
 * Issues the workspace's SCIM token, replacing the previous one at once (its next request is
 * 401). BUSINESS only (403 `plan_limit_reached`). The audit entry names the prefix, never the secret.
 */
export async function issueScimToken(orm: MikroORM, input: { organizationId: string; actor: AuditActor; createdBy: string }) {
  const org = await getOrganization(orm, input.organizationId);
  if (!planHasScim(org.plan)) throw forbidden(scimPlanMessage(org.plan), 'plan_limit_reached');
  const { plaintext, hash } = mintScimToken();
  const now = new Date();
  const row = { organization_id: org.id, token_hash: hash, display_prefix: plaintext.slice(0, 12), created_by: input.createdBy, created_at: now };
  await knexOf(orm).transaction(async (trx) => {
    const replaced = await trx('scim_tokens').delete().where({ organization_id: org.id });
    await trx('scim_tokens').insert(row);
    await recordAudit(
      trx,
      {
        organizationId: org.id,
        actor: input.actor,
        action: 'scim_token.create',
        targetType: 'scim_token',
        targetId: org.id,
        details: { prefix: row.display_prefix, replaced_previous: replaced > 0 },
      },
      now,
    );
  });
  return { token: plaintext, created_at: iso(now) };
}

/** Whether the workspace has a SCIM token, and which (its prefix); never the secret or its hash. */
export async function scimTokenStatus(orm: MikroORM, organizationId: string) {
  const row = await knexOf(orm)('scim_tokens').select('display_prefix', 'created_at').where({ organization_id: organizationId }).first();
  return row
    ? { configured: true, prefix: row.display_prefix as string, created_at: iso(row.created_at) }
    : { configured: false, prefix: null, created_at: null };
}

/** Revokes the workspace's SCIM token at once; 404 when there is none. */
export async function revokeScimToken(orm: MikroORM, input: { organizationId: string; actor: AuditActor }) {
  return knexOf(orm).transaction(async (trx) => {
    const gone = (await trx('scim_tokens').delete().where({ organization_id: input.organizationId }).returning(['display_prefix'])) as Array<{
      display_prefix: string;
    }>;
    if (gone.length === 0) throw notFound('this workspace has no SCIM token');
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actor: input.actor,
      action: 'scim_token.revoke',
      targetType: 'scim_token',
      targetId: input.organizationId,
      details: { prefix: gone[0].display_prefix },
    });
    return { revoked: true as const };
  });
}

export type ScimAuth = { ok: true; organizationId: string; plan: Plan; planAllows: boolean } | { ok: false };

/** Who a SCIM bearer token speaks for, looked up by hash; the plan is read now, not when the token was made. */
export async function authenticateScimToken(orm: MikroORM, plaintext: string): Promise<ScimAuth> {
  if (!looksLikeScimToken(plaintext)) return { ok: false };
  const row = await knexOf(orm)('scim_tokens as s')
    .join('organizations as o', 'o.id', 's.organization_id')
    .select('s.organization_id', 'o.plan')
    .where({ 's.token_hash': hashSecret(plaintext) })
    .first();
  if (!row) return { ok: false };
  const plan = row.plan as Plan;
  return { ok: true, organizationId: row.organization_id as string, plan, planAllows: planHasScim(plan) };
}
