/**
 * Readiness (docs/readiness.md): the workspace's gaps over the next days, read in a fixed number of
 * queries and decided by src/domain/paging/readiness.ts.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { EscalationStep } from '../../db/entities/escalation-policy';
import { knexOf } from '../../db/knex';
import { readinessGaps, type PolicyReach, type ReadinessGap, type ScheduleShifts } from '../../domain/paging/readiness';
import { NEVER_PAGED_ROLE } from '../../domain/roles';
import { currentLayers, shiftsBetween, type StoredLayer } from '../../domain/schedule';
import { pagingPeople } from './notification-rules';

/** How far ahead readiness looks. */
export const READINESS_DAYS = 14;

export interface ReadinessQuery {
  organizationId: string;
  /** Only the gaps of this schedule, or of this policy (a policy no service uses yet is included when asked for). */
  scheduleId?: string;
  policyId?: string;
  now?: Date;
}

export async function workspaceReadiness(orm: MikroORM, q: ReadinessQuery): Promise<{ from: string; to: string; gaps: ReadinessGap[] }> {
  const knex = knexOf(orm);
  const from = (q.now ?? new Date()).getTime();
  const to = from + READINESS_DAYS * 86_400_000;
  const members: Array<{ id: string; name: string | null; email: string; role: string }> = await knex('users as u')
    .join('memberships as m', 'm.user_id', 'u.id')
    .select('u.id', 'u.name', 'u.email', 'm.role')
    .where('m.organization_id', q.organizationId);
  const neverPaged = new Set(members.filter((m) => m.role === NEVER_PAGED_ROLE).map((m) => m.id));
  const memberIds = new Set(members.map((m) => m.id));
  const names = new Map(members.map((m) => [m.id, m.name ?? m.email]));

  const scheduleRows: Array<{ id: string; name: string; time_zone: string; layers: StoredLayer[] }> = await knex('schedules')
    .select('id', 'name', 'time_zone', 'layers')
    .where({ organization_id: q.organizationId })
    .orderBy('name');
  const overrides: Array<{ schedule_id: string; user_id: string; starts_at: Date; ends_at: Date }> = await knex('schedule_overrides')
    .select('schedule_id', 'user_id', 'starts_at', 'ends_at')
    .whereIn(
      'schedule_id',
      scheduleRows.map((s) => s.id),
    )
    .andWhere('starts_at', '<', new Date(to))
    .andWhere('ends_at', '>', new Date(from));
  const schedules: ScheduleShifts[] = scheduleRows.map((s) => ({
    id: s.id,
    name: s.name,
    spans: shiftsBetween(
      {
        timeZone: s.time_zone,
        layers: currentLayers(s.layers),
        overrides: overrides.filter((o) => o.schedule_id === s.id).map((o) => ({ userId: o.user_id, from: new Date(o.starts_at), to: new Date(o.ends_at) })),
      },
      new Date(from),
      new Date(to),
    ).map((span) => ({ start: span.start.getTime(), end: span.end.getTime(), userIds: span.userIds.filter((id) => memberIds.has(id)) })),
  }));

  // The policies services page with, and the one asked for.
  const policyRows: Array<{ id: string; name: string; steps: EscalationStep[] }> = await knex('escalation_policies as p')
    .select('p.id', 'p.name', 'p.steps')
    .where('p.organization_id', q.organizationId)
    .andWhere((w) => {
      void w.whereExists(knex('services as s').select(knex.raw('1')).whereRaw('s.escalation_policy_id = p.id'));
      if (q.policyId) void w.orWhere('p.id', q.policyId);
    })
    .orderBy('p.name');
  const teamIds = [...new Set(policyRows.flatMap((p) => p.steps.flatMap((s) => s.targets.filter((t) => t.type === 'team').map((t) => t.id))))];
  const teamRows: Array<{ id: string; name: string }> = await knex('teams').select('id', 'name').whereIn('id', teamIds);
  const teamMembers: Array<{ team_id: string; user_id: string }> = await knex('team_members').select('team_id', 'user_id').whereIn('team_id', teamIds);
  const teams = new Map(
    teamRows.map((t) => [t.id, { name: t.name, userIds: teamMembers.filter((m) => m.team_id === t.id && memberIds.has(m.user_id)).map((m) => m.user_id) }]),
  );
  const policies: PolicyReach[] = policyRows.map((p) => ({
    id: p.id,
    name: p.name,
    steps: p.steps.map((s) => ({
      targets: s.targets.map((t) =>
        t.type === 'team'
          ? { type: 'team' as const, id: t.id, name: teams.get(t.id)?.name ?? t.id, userIds: teams.get(t.id)?.userIds ?? [] }
          : { type: t.type, id: t.id },
      ),
    })),
  }));

  // How soon each member's rules first page them (what the workflow's lookups would page: ruleJobs).
  const { people } = await pagingPeople(knex, [...memberIds], q.organizationId);
  const reach = new Map<string, number | null>([...memberIds].map((id) => [id, null]));
  for (const p of people) reach.set(p.userId, p.rules.length ? Math.min(...p.rules.map((r) => r.delaySeconds)) : null);

  // Members whose latest drill reached them on no channel (every result of theirs in it failed).
  // A drill that skipped them altogether (drilled within the hour by another) is not their latest.
  const { rows: drilled } = (await knex.raw(
    `with latest as (
       select distinct on (r.user_id) r.user_id, r.drill_id
         from drill_results r join drills d on d.id = r.drill_id
        where r.organization_id = ? and r.status <> 'skipped' order by r.user_id, d.created_at desc, d.id desc
     )
     select l.user_id, string_agg(coalesce(r.channel, 'nothing to send') || ': ' || coalesce(r.error, 'failed'), '; ' order by r.channel) as why
       from latest l join drill_results r on r.drill_id = l.drill_id and r.user_id = l.user_id
      group by l.user_id having bool_and(r.status = 'failed')`,
    [q.organizationId],
  )) as { rows: Array<{ user_id: string; why: string }> };
  const drillFailures = new Map(drilled.map((d) => [d.user_id, d.why.slice(0, 300)]));

  // Contact methods an import brought in, that page the person, and that no page or drill has reached yet (docs/importers.md).
  const { rows: unconfirmedRows } = (await knex.raw(
    `select c.user_id, string_agg(c.type || ' ' || c.address, ', ' order by c.created_at, c.id) as methods
       from contact_methods c
      where c.organization_id = ? and c.source = 'import' and c.disabled_at is null and c.verified_at is not null
        -- the ones that page: a rule's, or an email of someone with no rule (the fallback)
        and (exists (select 1 from notification_rules r where r.contact_method_id = c.id)
             or (c.type = 'email' and not exists (select 1 from notification_rules r where r.user_id = c.user_id and r.organization_id = c.organization_id)))
        and not exists (select 1 from notifications n where n.user_id = c.user_id and n.contact_method_id = c.id and n.status in ('sent', 'delivered'))
        and not exists (select 1 from drill_results d where d.address = c.address and d.contact_method_id = c.id and d.status = 'delivered')
      group by c.user_id`,
    [q.organizationId],
  )) as { rows: Array<{ user_id: string; methods: string }> };
  const unconfirmed = new Map(unconfirmedRows.map((r) => [r.user_id, r.methods.slice(0, 300)]));

  // Places the last import left people out of because it had to invite them, while they are not members.
  const leftOutRows: Array<{ email: string; schedule_id: string | null; policy_id: string | null; place: string }> = await knex('import_left_out as l')
    .select('l.email', 'l.schedule_id', 'l.policy_id', 'l.place')
    .where('l.organization_id', q.organizationId)
    .whereNotExists(
      knex('memberships as m')
        .join('users as u', 'u.id', 'm.user_id')
        .select(knex.raw('1'))
        .whereRaw('u.email = l.email')
        .andWhere('m.organization_id', q.organizationId),
    )
    .orderBy([{ column: 'l.email' }, { column: 'l.place' }]);
  const leftOut = leftOutRows.map((r) => ({ email: r.email, scheduleId: r.schedule_id, policyId: r.policy_id, place: r.place }));

  // A policy's gaps include those of the schedules it pages.
  const asked = policies.find((p) => p.id === q.policyId);
  const itsSchedules = new Set(asked?.steps.flatMap((s) => s.targets.filter((t) => t.type === 'schedule').map((t) => t.id)) ?? []);
  const gaps = readinessGaps({ from, to, schedules, policies, reach, names, drillFailures, unconfirmed, neverPaged, leftOut }).filter(
    (g) =>
      (!q.scheduleId || g.schedule_id === q.scheduleId) &&
      (!q.policyId || g.policy_id === q.policyId || (g.schedule_id !== undefined && g.policy_id === undefined && itsSchedules.has(g.schedule_id))),
  );
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), gaps };
}
