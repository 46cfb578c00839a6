import type { Knex } from '@mikro-orm/postgresql';
import { PAGE_AFTER_RECHECK_MS, pageAfterHeldMessage, pageAfterReached } from '../../domain/grouping/page-after';
import type { GroupingRule } from '../../domain/grouping/rules';

/** A grouped incident held by its rule's page_after: until when (then it plans again), and what the decision says. */
export interface PageAfterHold {
  until: Date;
  message: string;
  data: { kind: 'grouping_page_after'; rule: string; count: number; within_seconds: number; alerts: number };
}

/** Alert times read at most per check: a rule's count is at most 10,000. */
const MAX_TIMES = 20_000;

/**
 * Whether the incident's grouping rule holds its paging (docs/grouping.md, "Holding pages"): it
 * was opened under a rule with `page_after`, and not yet `count` of its alerts arrived within
 * `within_seconds`. The rule is read as it is now; a rule since deleted or changed holds nothing.
 */
export async function pageAfterHold(k: Knex, incidentId: string, at: Date): Promise<PageAfterHold | null> {
  const incident: { group_rule: string | null; service_id: string | null } | undefined = await k('incidents')
    .where({ id: incidentId })
    .first('group_rule', 'service_id');
  if (!incident?.group_rule || !incident.service_id) return null;
  const grouping: { rules: GroupingRule[] } | undefined = await k('service_grouping').where({ service_id: incident.service_id }).first('rules');
  const rule = grouping?.rules.find((r) => r.name === incident.group_rule);
  if (!rule?.page_after) return null;
  const { count, within_seconds } = rule.page_after;
  const rows: Array<{ created_at: Date | string }> = await k('alerts')
    .where({ incident_id: incidentId })
    .orderBy('created_at')
    .limit(MAX_TIMES)
    .select('created_at');
  const times = rows.map((r) => new Date(r.created_at).getTime());
  if (pageAfterReached(times, count, within_seconds)) return null;
  return {
    until: new Date(at.getTime() + PAGE_AFTER_RECHECK_MS),
    message: pageAfterHeldMessage(rule.name, count, within_seconds, times.length),
    data: { kind: 'grouping_page_after', rule: rule.name, count, within_seconds, alerts: times.length },
  };
}
