/**
 * What a what-if reads (docs/what-if.md, "Cost"): the service's incidents, who each step pages at
 * an instant (today's schedules, teams and rules, read once), the pages that really went out, and
 * the people's names: a fixed number of queries, whatever the number of incidents.
 */
import type { Knex } from '@mikro-orm/postgresql';
import type { EscalationStep } from '../../db/entities/escalation-policy';
import type { ChannelId } from '../../domain/channels';
import type { PageJob } from '../../domain/paging/escalation-plan';
import { currentLayers, onCallAt, shiftsBetween, type OnCallSpan, type ScheduleSpec, type StoredLayer } from '../../domain/schedule';
import { pagingPeople, ruleJobs, type UserPagingRules } from './notification-rules';

const DAY_MS = 86_400_000;

export interface IncidentRow {
  id: string;
  number: number;
  title: string;
  created_at: Date;
  ended_at: Date | null;
}

export interface ActualRow {
  incident_id: string;
  user_id: string | null;
  channel: ChannelId;
  escalation_step: number | null;
  created_at: Date;
}

/**
 * The service's incidents opened in [from, to), oldest first, at most `limit` (one more is read to
 * tell there were more); opened no later than `openedBy` when a cursor pins the replay's "now".
 */
export async function incidentsOf(
  knex: Knex,
  q: { organizationId: string; serviceId: string; from: Date; to: Date; openedBy?: Date; limit: number },
): Promise<{ incidents: IncidentRow[]; more: boolean }> {
  const query = knex('incidents')
    .select('id', 'number', 'title', 'created_at')
    .select(knex.raw('least(acknowledged_at, resolved_at, closed_at) as ended_at'))
    .where({ organization_id: q.organizationId, service_id: q.serviceId })
    .andWhere('created_at', '>=', q.from)
    .andWhere('created_at', '<', q.to);
  if (q.openedBy) query.andWhere('created_at', '<=', q.openedBy);
  const rows: IncidentRow[] = await query.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(q.limit + 1);
  return { incidents: rows.slice(0, q.limit), more: rows.length > q.limit };
}

/** Who a step pages at an instant, from today's schedules, teams and rules, read once for the whole replay. */
export async function resolverFor(knex: Knex, organizationId: string, steps: EscalationStep[], from: Date, until: Date) {
  const targets = steps.flatMap((s) => s.targets);
  const idsOf = (type: string) => [...new Set(targets.filter((t) => t.type === type).map((t) => t.id))];
  const members = new Set<string>(await knex('memberships').where({ organization_id: organizationId }).pluck('user_id'));
  const teamRows: Array<{ team_id: string; user_id: string }> = await knex('team_members')
    .select('team_id', 'user_id')
    .whereIn('team_id', idsOf('team'))
    .orderBy([{ column: 'created_at' }, { column: 'user_id' }]);
  const teams = new Map<string, string[]>();
  for (const r of teamRows) teams.set(r.team_id, [...(teams.get(r.team_id) ?? []), r.user_id]);
  // Team members in the order the workflow reads them (team-members.ts): by when they joined.
  const schedules = await scheduleLookups(knex, organizationId, idsOf('schedule'), from, until);

  const usersOf = (t: { type: string; id: string }, atMs: number): string[] =>
    t.type === 'user' ? [t.id] : t.type === 'team' ? (teams.get(t.id) ?? []) : (schedules.get(t.id)?.(atMs) ?? []);
  const candidates = new Set<string>([...idsOf('user'), ...teamRows.map((r) => r.user_id), ...[...schedules.values()].flatMap((s) => s.everyone)]);
  const inWorkspace = [...candidates].filter((id) => members.has(id));
  const { people } = await pagingPeople(knex, inWorkspace, organizationId);
  const rulesOf = new Map<string, UserPagingRules>(people.map((p) => [p.userId, p]));

  const jobsAt = (step: number, atMs: number): PageJob[] => {
    const userIds = [...new Set((steps[step]?.targets ?? []).flatMap((t) => usersOf(t, atMs)))].filter((id) => members.has(id));
    return userIds.flatMap((id) => {
      const person = rulesOf.get(id);
      return person ? ruleJobs(person) : [];
    });
  };
  return { jobsAt, userIds: inWorkspace };
}

/** Per schedule: who is on call at an instant (spans over the range, the schedule's maths outside it), and everyone it names. */
async function scheduleLookups(knex: Knex, organizationId: string, ids: string[], from: Date, until: Date) {
  const out = new Map<string, ((atMs: number) => string[]) & { everyone: string[] }>();
  if (ids.length === 0) return out;
  const rows: Array<{ id: string; time_zone: string; layers: StoredLayer[] }> = await knex('schedules')
    .select('id', 'time_zone', 'layers')
    .where({ organization_id: organizationId })
    .whereIn('id', ids);
  const overrides: Array<{ schedule_id: string; user_id: string; starts_at: Date; ends_at: Date }> = await knex('schedule_overrides')
    .select('schedule_id', 'user_id', 'starts_at', 'ends_at')
    .whereIn(
      'schedule_id',
      rows.map((r) => r.id),
    )
    .andWhere('starts_at', '<', until)
    .andWhere('ends_at', '>', from)
    .orderBy([{ column: 'starts_at' }, { column: 'id' }]);
  const end = new Date(Math.min(until.getTime(), from.getTime() + 366 * DAY_MS));
  for (const row of rows) {
    const spec: ScheduleSpec = {
      timeZone: row.time_zone,
      layers: currentLayers(row.layers),
      overrides: overrides.filter((o) => o.schedule_id === row.id).map((o) => ({ userId: o.user_id, from: new Date(o.starts_at), to: new Date(o.ends_at) })),
    };
    const spans = shiftsBetween(spec, from, end);
    const at = (atMs: number): string[] => {
      const span = spanAt(spans, atMs);
      return span ? span.userIds : onCallAt(spec, new Date(atMs));
    };
    out.set(row.id, Object.assign(at, { everyone: [...new Set(spans.flatMap((s) => s.userIds))] }));
  }
  return out;
}

/** The span holding `atMs` (spans are consecutive and sorted), by bisection. */
function spanAt(spans: OnCallSpan[], atMs: number): OnCallSpan | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[mid];
    if (atMs < s.start.getTime()) hi = mid - 1;
    else if (atMs >= s.end.getTime()) lo = mid + 1;
    else return s;
  }
  return undefined;
}

/** The pages that really went out for these incidents, oldest first (none after `sentBy`, when a cursor pins "now"). */
export async function actualPages(knex: Knex, incidentIds: string[], sentBy?: Date): Promise<Map<string, ActualRow[]>> {
  const out = new Map<string, ActualRow[]>();
  if (incidentIds.length === 0) return out;
  const query = knex('notifications')
    .select('incident_id', 'user_id', 'channel', 'escalation_step', 'created_at')
    .whereRaw('incident_id = any(?::uuid[])', [`{${incidentIds.join(',')}}`]);
  if (sentBy) query.andWhere('created_at', '<=', sentBy);
  const rows: ActualRow[] = await query.orderBy([{ column: 'created_at' }, { column: 'id' }]);
  for (const r of rows) {
    const list = out.get(r.incident_id);
    if (list) list.push(r);
    else out.set(r.incident_id, [r]);
  }
  return out;
}

/** Names (or emails) and time zones of the people in the answer. */
export async function peopleNamed(knex: Knex, ids: string[]): Promise<Map<string, { name: string; timeZone: string | null }>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows: Array<{ id: string; name: string | null; email: string; time_zone: string | null }> = await knex('users')
    .select('id', 'name', 'email', 'time_zone')
    .whereRaw('id = any(?::uuid[])', [`{${unique.join(',')}}`]);
  return new Map(rows.map((r) => [r.id, { name: r.name ?? r.email, timeZone: r.time_zone }]));
}
