/**
 * What an incident's Slack message shows beyond the event itself (docs/chat.md, "Slack
 * messages"), read cheaply: who the latest paging step pages, the service's name, the surface a
 * person acted through, and whether the workspace's plan has chat. Reads only.
 */
import type { Knex } from '@mikro-orm/postgresql';
import { PLAN_LIMITS, type Plan } from '../../domain/plans';

/**
 * Who the incident's latest paging step paged, by name (else email), in the decision's order:
 * the last `paging_decision` entry of its timeline (one index lookup), its `paged` people.
 */
export async function pagingNow(k: Knex, incidentId: string): Promise<string[]> {
  const { rows } = (await k.raw(
    `select coalesce(u.name, u.email, p.person->>'email') as name
     from (select data from timeline_entries where incident_id = ? and type = 'paging_decision' order by seq desc limit 1) d
     cross join lateral jsonb_array_elements(coalesce(d.data->'paged', '[]'::jsonb)) with ordinality as p(person, ord)
     left join users u on u.id = (p.person->>'user_id')::uuid
     order by p.ord`,
    [incidentId],
  )) as { rows: Array<{ name: string | null }> };
  return rows.flatMap((r) => (r.name ? [r.name] : []));
}

/** A service's name; null when it was deleted. */
export async function serviceName(k: Knex, serviceId: string | null): Promise<string | null> {
  if (!serviceId) return null;
  const row = await k('services').where({ id: serviceId }).first<{ name: string } | undefined>('name');
  return row?.name ?? null;
}

/**
 * The surface a status move came through (`slack`, `sms`, `api`, `dashboard`, …): the event's
 * actor names the person, its timeline entry (written with it, at the same instant) the surface.
 */
export async function statusChangeVia(k: Knex, incidentId: string, toStatus: string, at: string): Promise<string | null> {
  const row = await k('timeline_entries')
    .where({ incident_id: incidentId, type: 'status_change', to_status: toStatus, created_at: new Date(at) })
    .first<{ via: string | null } | undefined>('via');
  return row?.via ?? null;
}

/** Whether the workspace's plan has chat (false when the workspace is gone). */
export async function planHasChat(k: Knex, organizationId: string): Promise<boolean> {
  const row = await k('organizations').where({ id: organizationId }).first<{ plan: Plan } | undefined>('plan');
  return row ? PLAN_LIMITS[row.plan].chat : false;
}

/**
 * What a chat message shows beyond the event (every provider's, docs/chat.md): the service's name
 * and policy, and who the incident's latest paging decision paged. One row for the service, one
 * for the decision.
 */
export async function chatMessageContext(
  k: Knex,
  serviceId: string,
  incidentId: string | null,
): Promise<{ serviceName: string | null; policyName: string | null; paging: { stepNumber: number; people: string[] } | null }> {
  const service = await k('services as s')
    .leftJoin('escalation_policies as p', 'p.id', 's.escalation_policy_id')
    .where('s.id', serviceId)
    .first<{ name: string; policy_name: string | null } | undefined>('s.name', 'p.name as policy_name');
  const decision = incidentId
    ? await k('timeline_entries')
        .where({ incident_id: incidentId, type: 'paging_decision' })
        .orderBy('seq', 'desc')
        .first<{ data: { step_number?: number; paged?: Array<{ email?: string }> } | null } | undefined>('data')
    : undefined;
  const people = (decision?.data?.paged ?? []).map((p) => p.email).filter((e): e is string => typeof e === 'string');
  return {
    serviceName: service?.name ?? null,
    policyName: service?.policy_name ?? null,
    paging: decision?.data ? { stepNumber: decision.data.step_number ?? 1, people } : null,
  };
}
