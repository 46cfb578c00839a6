import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import type { GroupingRule } from '../../domain/grouping/rules';

/** A service's grouping rules as the API shows them. */
export interface GroupingRulesJson {
  service_id: string;
  rules: GroupingRule[];
  updated_at: string | null;
}

/** The service's rules, in order; none stored reads as an empty list. The caller checked the service is the workspace's. */
export async function getGroupingRules(orm: MikroORM, serviceId: string): Promise<GroupingRulesJson> {
  const row = await knexOf(orm)('service_grouping')
    .where({ service_id: serviceId })
    .first<{ rules: GroupingRule[]; updated_at: Date | string } | undefined>('rules', 'updated_at');
  return { service_id: serviceId, rules: row?.rules ?? [], updated_at: row ? iso(row.updated_at) : null };
}

/**
 * Replaces the service's rules (the one writer of `service_grouping`); with an actor, the audit
 * entry (`service.grouping.update`, the rules' names) lands in the same transaction.
 */
export async function putGroupingRules(
  orm: MikroORM,
  input: { organizationId: string; serviceId: string; rules: GroupingRule[] },
  audit?: AuditActor,
  now = new Date(),
): Promise<GroupingRulesJson> {
  await knexOf(orm).transaction(async (trx) => {
    await trx('service_grouping')
      .insert({ service_id: input.serviceId, organization_id: input.organizationId, rules: JSON.stringify(input.rules), updated_at: now })
      .onConflict('service_id')
      .merge(['rules', 'updated_at']);
    if (audit) {
      const details = { rules: input.rules.map((r) => r.name) };
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: audit,
        action: 'service.grouping.update',
        targetType: 'service',
        targetId: input.serviceId,
        details,
      });
    }
  });
  return { service_id: input.serviceId, rules: input.rules, updated_at: now.toISOString() };
}
