/**
 * What-if (docs/what-if.md): a service's real incidents over a range, replayed against a policy
 * (a draft, or a saved one) with today's schedules, teams and each person's rules, beside the
 * pages that really went out. The replay itself is pure (src/domain/paging/what-if.ts); this
 * reads everything it needs in a fixed number of queries, whatever the number of incidents.
 */
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { EscalationStep } from '../../db/entities/escalation-policy';
import { knexOf } from '../../db/knex';
import type { ChannelId } from '../../domain/channels';
import type { EscalationPlan, PageJob } from '../../domain/paging/escalation-plan';
import { isNight, replaySpell, type SimulatedPage } from '../../domain/paging/what-if';
import { currentLayers, onCallAt, shiftsBetween, type OnCallSpan, type ScheduleSpec, type StoredLayer } from '../../domain/schedule';
import { invalid, notFound } from '../errors';
import { pagingPeople, ruleJobs, type UserPagingRules } from './notification-rules';
import { getEscalationPolicy, validPolicy } from './escalation-policies';

/** The widest range one simulation replays, and the most incidents it takes (the oldest first). */
export const WHAT_IF_LIMITS = { maxRangeDays: 90, maxIncidents: 10_000 } as const;

const DAY_MS = 86_400_000;

/** What to simulate: a draft policy or a saved one, on a service's incidents opened in [from, to). */
export interface SimulationInput {
  organizationId: string;
  serviceId: string;
  policy: { id: string } | { steps: EscalationStep[]; repeat?: number; ackTimeoutSeconds?: number | null; name?: string };
  from: Date;
  to: Date;
  /** The replay's "now" for incidents still TRIGGERED (tests pin it). */
  now?: Date;
}

interface PageJson {
  user_id: string | null;
  name: string | null;
  channel: ChannelId;
  at: string;
}

export interface SimulationJson {
  from: string;
  to: string;
  policy: { id: string | null; name: string };
  /** True when the range held more incidents than the replay takes (WHAT_IF_LIMITS). */
  truncated: boolean;
  incidents: Array<{
    incident_id: string;
    number: number;
    title: string;
    opened_at: string;
    /** When the TRIGGERED spell ended (acknowledged, resolved or closed); null: still TRIGGERED. */
    ended_at: string | null;
    would_page: PageJson[];
    actually_paged: PageJson[];
    /** Whether the two differ in who, how or at which step. */
    differs: boolean;
  }>;
  totals: Array<{ user_id: string; name: string; would_pages: number; night_pages: number; actual_pages: number }>;
}

interface IncidentRow {
  id: string;
  number: number;
  title: string;
  created_at: Date;
  ended_at: Date | null;
}

interface ActualRow {
  incident_id: string;
  user_id: string | null;
  channel: ChannelId;
  escalation_step: number | null;
  created_at: Date;
}

/** Replays the service's incidents in the range against the policy (docs/what-if.md says what is and is not replayed). */
export async function simulatePolicy(orm: MikroORM, input: SimulationInput): Promise<SimulationJson> {
  const { organizationId, from, to } = input;
  if (!(from.getTime() < to.getTime())) throw invalid('to: must be after from');
  if (to.getTime() - from.getTime() > WHAT_IF_LIMITS.maxRangeDays * DAY_MS) throw invalid(`to: the range must be at most ${WHAT_IF_LIMITS.maxRangeDays} days`);
  const knex = knexOf(orm);
  const service = await knex('services').select('id').where({ id: input.serviceId, organization_id: organizationId }).first();
  if (!service) throw notFound(`service ${input.serviceId} not found`);
  const policy = await policyOf(orm, organizationId, input.policy);
  const now = (input.now ?? new Date()).getTime();

  const rows: IncidentRow[] = await knex('incidents')
    .select('id', 'number', 'title', 'created_at')
    .select(knex.raw('least(acknowledged_at, resolved_at, closed_at) as ended_at'))
    .where({ organization_id: organizationId, service_id: input.serviceId })
    .andWhere('created_at', '>=', from)
    .andWhere('created_at', '<', to)
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .limit(WHAT_IF_LIMITS.maxIncidents + 1);
  const truncated = rows.length > WHAT_IF_LIMITS.maxIncidents;
  const incidents = rows.slice(0, WHAT_IF_LIMITS.maxIncidents);

  const plan: EscalationPlan = {
    kind: 'policy',
    stepDelays: policy.steps.map((s) => s.delay_seconds),
    repeat: policy.repeat,
    ackTimeoutSeconds: policy.ackTimeoutSeconds,
  };
  const spanMs = plan.stepDelays.reduce((a, b) => a + b, 0) * 1000 * (plan.repeat + 1);
  const resolver = await resolverFor(knex, organizationId, policy.steps, from, new Date(Math.max(to.getTime(), now) + spanMs + DAY_MS));
  const actual = await actualPages(
    knex,
    incidents.map((i) => i.id),
  );
  const people = await peopleNamed(knex, [...resolver.userIds, ...[...actual.values()].flat().flatMap((p) => (p.user_id ? [p.user_id] : []))]);

  const totals = new Map<string, { would: number; night: number; actual: number }>();
  const tally = (userId: string | null, key: 'would' | 'night' | 'actual') => {
    if (!userId) return;
    const t = totals.get(userId) ?? { would: 0, night: 0, actual: 0 };
    t[key] += 1;
    totals.set(userId, t);
  };
  const pageJson = (userId: string | null, channel: ChannelId, atMs: number): PageJson => ({
    user_id: userId,
    name: userId ? (people.get(userId)?.name ?? null) : null,
    channel,
    at: new Date(atMs).toISOString(),
  });

  const out: SimulationJson['incidents'] = incidents.map((incident) => {
    const openedAtMs = new Date(incident.created_at).getTime();
    const endedAtMs = incident.ended_at ? new Date(incident.ended_at).getTime() : null;
    const would = replaySpell(plan, { openedAtMs, endedAtMs, untilMs: now }, resolver.jobsAt);
    // Only the first TRIGGERED spell is replayed: later spells' pages (after an ack timeout or a reopen) are left out of both sides.
    const real = (actual.get(incident.id) ?? []).filter((p) => endedAtMs === null || new Date(p.created_at).getTime() <= endedAtMs);
    for (const p of would) {
      tally(p.userId, 'would');
      if (p.userId && isNight(p.atMs, people.get(p.userId)?.timeZone ?? 'UTC')) tally(p.userId, 'night');
    }
    for (const p of real) tally(p.user_id, 'actual');
    return {
      incident_id: incident.id,
      number: incident.number,
      title: incident.title,
      opened_at: new Date(openedAtMs).toISOString(),
      ended_at: endedAtMs === null ? null : new Date(endedAtMs).toISOString(),
      would_page: would.map((p) => pageJson(p.userId, p.channel, p.atMs)),
      actually_paged: real.map((p) => pageJson(p.user_id, p.channel, new Date(p.created_at).getTime())),
      differs: differ(would, real),
    };
  });

  return {
    from: from.toISOString(),
    to: to.toISOString(),
    policy: { id: policy.id, name: policy.name },
    truncated,
    incidents: out,
    totals: [...totals]
      .map(([userId, t]) => ({
        user_id: userId,
        name: people.get(userId)?.name ?? userId,
        would_pages: t.would,
        night_pages: t.night,
        actual_pages: t.actual,
      }))
      .sort((a, b) => b.would_pages - a.would_pages || b.actual_pages - a.actual_pages || a.name.localeCompare(b.name)),
  };
}

interface SimulatedPolicy {
  id: string | null;
  name: string;
  steps: EscalationStep[];
  repeat: number;
  ackTimeoutSeconds: number | null;
}

async function policyOf(orm: MikroORM, organizationId: string, given: SimulationInput['policy']): Promise<SimulatedPolicy> {
  if ('id' in given) {
    const p = await getEscalationPolicy(orm, given.id, organizationId);
    return { id: p.id, name: p.name, steps: p.steps, repeat: p.repeat, ackTimeoutSeconds: p.ack_timeout_seconds };
  }
  // A draft is checked as a saved policy would be (every target in the workspace), and not saved.
  const p = await validPolicy(orm, {
    organizationId,
    name: given.name ?? 'Draft',
    steps: given.steps,
    repeat: given.repeat ?? 0,
    ackTimeoutSeconds: given.ackTimeoutSeconds ?? null,
  });
  return { id: null, name: p.name, steps: p.steps, repeat: p.repeat, ackTimeoutSeconds: p.ackTimeoutSeconds };
}

/** Same people, channels and steps on both sides (times are shown, not compared: the real ones carry delivery delays). */
function differ(would: SimulatedPage[], real: ActualRow[]): boolean {
  const key = (userId: string | null, channel: string, step: number | null) => `${userId}|${channel}|${step}`;
  const a = would.map((p) => key(p.userId, p.channel, p.step)).sort();
  const b = real.map((p) => key(p.user_id, p.channel, p.escalation_step)).sort();
  return a.length !== b.length || a.some((k, i) => k !== b[i]);
}

/** Who a step pages at an instant, from today's schedules, teams and rules, read once for the whole replay. */
async function resolverFor(knex: Knex, organizationId: string, steps: EscalationStep[], from: Date, until: Date) {
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

/** The pages that really went out for these incidents, oldest first. */
async function actualPages(knex: Knex, incidentIds: string[]): Promise<Map<string, ActualRow[]>> {
  const out = new Map<string, ActualRow[]>();
  if (incidentIds.length === 0) return out;
  const rows: ActualRow[] = await knex('notifications')
    .select('incident_id', 'user_id', 'channel', 'escalation_step', 'created_at')
    .whereRaw('incident_id = any(?::uuid[])', [`{${incidentIds.join(',')}}`])
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  for (const r of rows) {
    const list = out.get(r.incident_id);
    if (list) list.push(r);
    else out.set(r.incident_id, [r]);
  }
  return out;
}

/** Names (or emails) and time zones of the people in the answer. */
async function peopleNamed(knex: Knex, ids: string[]): Promise<Map<string, { name: string; timeZone: string | null }>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows: Array<{ id: string; name: string | null; email: string; time_zone: string | null }> = await knex('users')
    .select('id', 'name', 'email', 'time_zone')
    .whereRaw('id = any(?::uuid[])', [`{${unique.join(',')}}`]);
  return new Map(rows.map((r) => [r.id, { name: r.name ?? r.email, timeZone: r.time_zone }]));
}
