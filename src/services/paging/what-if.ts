/**
 * What-if (docs/what-if.md): a service's real incidents over a range, replayed against a policy
 * (a draft, or a saved one) with today's schedules, teams and each person's rules, beside the
 * pages that really went out. The replay itself is pure (src/domain/paging/what-if.ts); this
 * reads everything it needs in a fixed number of queries, whatever the number of incidents
 * (./what-if-reads.ts), and is bounded ("Bounds"): two at once per workspace
 * (./what-if-slots.ts), a page budget and turns given back to the event loop
 * (./what-if-replay.ts), an answer of at most 5 MiB with the rest by cursor (./what-if-answer.ts).
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { EscalationStep } from '../../db/entities/escalation-policy';
import { knexOf } from '../../db/knex';
import type { EscalationPlan } from '../../domain/paging/escalation-plan';
import { invalid, notFound } from '../errors';
import { getEscalationPolicy, validPolicy } from './escalation-policies';
import { answerIncidents, answerTotals, decodeCursor, encodeCursor, requestDigest, WHAT_IF_ANSWER } from './what-if-answer';
import { actualPages, incidentsOf, peopleNamed, resolverFor } from './what-if-reads';
import { replayIncidents, WHAT_IF_MAX_PAGES, type IncidentJson, type TotalJson } from './what-if-replay';
import { withWhatIfSlot } from './what-if-slots';

/** The widest range one simulation replays, the most incidents it takes (the oldest first), and the most pages it simulates. */
export const WHAT_IF_LIMITS = { maxRangeDays: 90, maxIncidents: 10_000, maxPages: WHAT_IF_MAX_PAGES } as const;

const DAY_MS = 86_400_000;

/** What to simulate: a draft policy or a saved one, on a service's incidents opened in [from, to). */
export interface SimulationInput {
  organizationId: string;
  serviceId: string;
  policy: { id: string } | { steps: EscalationStep[]; repeat?: number; ackTimeoutSeconds?: number | null; name?: string };
  from: Date;
  to: Date;
  /** An earlier answer's `next_cursor`: the next part of the same simulation. */
  cursor?: string;
  /** The replay's "now" for incidents still TRIGGERED (tests pin it). */
  now?: Date;
}

export interface SimulationJson {
  from: string;
  to: string;
  policy: { id: string | null; name: string };
  /** True when not everything in the range was replayed: more than WHAT_IF_LIMITS.maxIncidents incidents, or the page budget ran out. */
  truncated: boolean;
  /** Why: `incidents` (the oldest maxIncidents were replayed) or `pages` (the replay stopped at maxPages simulated pages). */
  truncated_reason: 'incidents' | 'pages' | null;
  /** Incidents replayed, in every part of the answer. */
  incident_count: number;
  /** Of them, those that would page differently. */
  differing_count: number;
  /** This part's incidents: all of them oldest first, or (a split answer) those that differ first, then the rest. */
  incidents: IncidentJson[];
  /** Per person over every replayed incident, most would-pages first. */
  totals: TotalJson[];
  /** True when the least-paged people were left out of `totals` to keep the answer small. */
  totals_truncated: boolean;
  /** Where the rest is: send the same request again with `cursor` set to it; null when this is the last part. */
  next_cursor: string | null;
}

/**
 * A simulation's answer: everything but its incidents, and the incidents as JSON text, in order.
 * The answer is written from these texts (docs/what-if.md, "Bounds"), never serialized whole.
 */
export interface Simulation {
  answer: Omit<SimulationJson, 'incidents'>;
  incidentTexts: string[];
}

/** Replays the service's incidents in the range against the policy (docs/what-if.md says what is and is not replayed). */
export async function simulatePolicy(orm: MikroORM, input: SimulationInput): Promise<Simulation> {
  const { organizationId, from, to } = input;
  if (!(from.getTime() < to.getTime())) throw invalid('to: must be after from');
  if (to.getTime() - from.getTime() > WHAT_IF_LIMITS.maxRangeDays * DAY_MS) throw invalid(`to: the range must be at most ${WHAT_IF_LIMITS.maxRangeDays} days`);
  const digest = requestDigest({ policy: input.policy, service_id: input.serviceId, from: from.toISOString(), to: to.toISOString() });
  const realNow = (input.now ?? new Date()).getTime();
  const cursor = input.cursor === undefined ? null : decodeCursor(input.cursor, digest, realNow);
  const knex = knexOf(orm);
  const service = await knex('services').select('id').where({ id: input.serviceId, organization_id: organizationId }).first();
  if (!service) throw notFound(`service ${input.serviceId} not found`);
  const policy = await policyOf(orm, organizationId, input.policy);
  // Every part of a split answer replays the same instants: the first part's "now".
  const now = cursor?.nowMs ?? realNow;
  const pinned = cursor ? new Date(now) : undefined;

  return withWhatIfSlot(orm, organizationId, async () => {
    const { incidents, more } = await incidentsOf(knex, {
      organizationId,
      serviceId: input.serviceId,
      from,
      to,
      openedBy: pinned,
      limit: WHAT_IF_LIMITS.maxIncidents,
    });
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
      pinned,
    );
    const people = await peopleNamed(knex, [...resolver.userIds, ...[...actual.values()].flat().flatMap((p) => (p.user_id ? [p.user_id] : []))]);
    const replayed = await replayIncidents({ plan, incidents, actual, jobsAt: resolver.jobsAt, people, nowMs: now });

    const totals = answerTotals(replayed.totals);
    const answer: Simulation['answer'] = {
      from: from.toISOString(),
      to: to.toISOString(),
      policy: { id: policy.id, name: policy.name },
      truncated: replayed.stoppedAtPages || more,
      truncated_reason: replayed.stoppedAtPages ? 'pages' : more ? 'incidents' : null,
      incident_count: replayed.incidents.length,
      differing_count: replayed.incidents.filter((i) => i.differs).length,
      totals: totals.totals,
      totals_truncated: totals.cut,
      next_cursor: null,
    };
    const fixedBytes = Buffer.byteLength(JSON.stringify(answer)) + encodeCursor({ offset: WHAT_IF_LIMITS.maxIncidents, nowMs: now }, digest).length;
    const part = answerIncidents(replayed.incidents, cursor?.offset ?? 0, WHAT_IF_ANSWER.maxBytes - fixedBytes - WHAT_IF_ANSWER.reserveBytes);
    answer.next_cursor = part.next === null ? null : encodeCursor({ offset: part.next, nowMs: now }, digest);
    return { answer, incidentTexts: part.incidents.map((i) => i.text) };
  });
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
