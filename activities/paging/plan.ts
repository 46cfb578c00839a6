import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { EscalationTarget } from '../../src/db/entities/escalation-policy';
import { pagingDecision, type ResolvedTarget, type StepResolution } from '../../src/domain/paging/decisions';
import { formBChannels } from '../../src/domain/paging/form-b-channels';
import type { EscalationPlan, PageJob } from '../../src/domain/paging/escalation-plan';
import type { ChannelId } from '../../src/domain/channels';
import { heldDecisionData, notPagedMessage } from '../../src/domain/maintenance';
import { recordPagingDecision, recordResponderEntry } from '../../src/services/incident';
import type { Actor, ResponderTarget } from '../../src/contracts/workflows';
import { pageAfterHold } from '../../src/services/grouping/page-after';
import { serviceHold } from '../../src/services/maintenance';
import {
  memberTargets,
  onCallUserIds,
  pagingPeople,
  pagingContext,
  ruleJobs,
  targetNames,
  type PagingContext,
  type UserPagingRules,
} from '../../src/services/paging';
import { teamMemberIds } from '../../src/services/workspace';

/** What stepRecipients is asked: a step at an instant; with `decisionSeq`, its decision goes on the timeline at that seq. */
export interface StepRecipientsInput {
  incidentId: string;
  step: number;
  at: string;
  /** Completed passes over the policy (for the decision's wording). */
  cycle?: number;
  decisionSeq?: number;
}

/** What planEscalation is asked: the incident; since the patch, with step 1's lookup (at the seq reserved for its decision). */
export interface PlanEscalationInput {
  incidentId: string;
  firstStep?: { step: 0; at: string; cycle: 0; decisionSeq: number };
  /**
   * Since the workflow's patch 'maintenance-hold' (with `firstStep`): a maintenance window of the
   * service at `firstStep.at` holds the spell instead; its entry takes the decision's seq.
   */
  maintenance?: true;
  /**
   * A reassign's chosen targets (docs/responding.md): they are step 1 of this spell, in place of
   * the policy's first step; no maintenance window holds what a person asked for.
   */
  targets?: ResponderTarget[];
}

/** Added responders to page now, and the entry that says who asked and whom it reached. */
export interface ResponderRecipientsInput {
  incidentId: string;
  targets: ResponderTarget[];
  at: string;
  entryId: string;
  seq: number;
  actor: Actor;
  message?: string;
}

/** The plan's answer: with step 1's pages, or, when a maintenance window holds the spell, until when (ISO). */
export type PlannedEscalation = EscalationPlan & {
  firstStep?: PageJob[];
  heldUntil?: string;
  /** The hold is a grouping rule's page_after: an attached alert makes the spell plan again (docs/grouping.md). */
  heldForAlerts?: boolean;
};

/** The plan of an incident's context. */
function planOf(c: PagingContext): EscalationPlan {
  // Without a policy the owning team is paged once (on the source's channels for Form B,
  // else by each member's rules): an incident nobody hears about is the worst default.
  const kind = c.channels ? 'channels' : c.steps ? 'policy' : 'team';
  const stepDelays = c.steps ? c.steps.map((s) => s.delay_seconds) : [0];
  return { kind, stepDelays, repeat: c.steps ? c.repeat : 0, ackTimeoutSeconds: c.ackTimeoutSeconds };
}

/** Who an incident pages and how: its service's policy, or its source's Form B channel list. */
export function createPagingPlanActivities({ orm }: { orm: MikroORM }) {
  const knex = () => orm.em.fork().getKnex();

  /**
   * The plan the workflow runs: read once per TRIGGERED spell. With `firstStep` (since the
   * workflow's patch 'plan-with-first-step'), also the pages of step 1, which starts the spell at
   * once, and its decision on the timeline: one lookup and one read of the policy where there were
   * two (stepRecipients). Absent when the plan pages nobody.
   */
  async function planEscalation({ incidentId, firstStep, maintenance, targets }: PlanEscalationInput): Promise<PlannedEscalation> {
    const k = knex();
    const c = await pagingContext(k, incidentId);
    const plan = planOf(c);
    if (firstStep && targets) return { ...plan, firstStep: await recipientsOf(k, c, { incidentId, ...firstStep }, targets) };
    if (!firstStep || plan.stepDelays.length === 0) return plan;
    const hold = maintenance ? await serviceHold(k, c.service?.id ?? null, new Date(firstStep.at)) : null;
    if (hold) {
      await recordPagingDecision(k, { incidentId, seq: firstStep.decisionSeq, message: notPagedMessage(hold), data: heldDecisionData(hold) });
      return { ...plan, heldUntil: hold.until.toISOString() };
    }
    // A grouped incident whose rule pages only after `count` alerts within `within_seconds`.
    const gathering = maintenance ? await pageAfterHold(k, incidentId, new Date(firstStep.at)) : null;
    if (gathering) {
      await recordPagingDecision(k, { incidentId, seq: firstStep.decisionSeq, message: gathering.message, data: gathering.data });
      return { ...plan, heldUntil: gathering.until.toISOString(), heldForAlerts: true };
    }
    return { ...plan, firstStep: await recipientsOf(k, c, { incidentId, ...firstStep }) };
  }

  /** Each target with the users it stands for at `at` (names are filled in for decisions only). */
  async function resolveTargets(targets: EscalationTarget[], at: Date): Promise<ResolvedTarget[]> {
    const resolved: ResolvedTarget[] = [];
    for (const t of targets) {
      const userIds = t.type === 'user' ? [t.id] : t.type === 'schedule' ? await onCallUserIds(orm, t.id, at) : await teamMemberIds(orm, t.id);
      resolved.push({ type: t.type, id: t.id, name: null, userIds });
    }
    return resolved;
  }

  /**
   * The pages step `step` sends, resolved at `at`: schedules answer who is on call then. With
   * `decisionSeq`, the decision (who, from what, who not and why, or nobody) is recorded too.
   */
  async function stepRecipients(input: StepRecipientsInput): Promise<PageJob[]> {
    const k = knex();
    return recipientsOf(k, await pagingContext(k, input.incidentId), input);
  }

  async function recipientsOf(k: Knex, c: PagingContext, input: StepRecipientsInput, chosen?: EscalationTarget[]): Promise<PageJob[]> {
    const stepTargets = await resolveTargets(chosen ?? c.steps?.[input.step]?.targets ?? [{ type: 'team', id: c.owningTeamId }], new Date(input.at));
    const formB = c.channels ? formBChannels(c.severity, c.channels) : null;
    // A webhook's member targets take their channels from the team, paged with the first step.
    const byTarget = formB && input.step === 0 ? await memberTargets(k, c, formB) : new Map<string, ChannelId[]>();
    const targeted = new Set([...byTarget.values()].flat());
    // Every channel targeted: the team is not paged at this step, so it is no target of it either.
    const teamPaged = !formB || formB.some((ch) => !targeted.has(ch));
    const targets = [...(teamPaged ? stepTargets : []), ...[...byTarget.keys()].map((id): ResolvedTarget => ({ type: 'user', id, name: null, userIds: [id] }))];
    const inStep = new Set(teamPaged ? stepTargets.flatMap((t) => t.userIds) : []);
    const userIds = [...new Set(targets.flatMap((t) => t.userIds))];
    // The people's rules and, for the decision, their contact methods that do not page: one read.
    const { people, disabled } = await pagingPeople(k, userIds, c.organizationId);
    // A webhook's channels limit which of each person's rules apply (docs/architecture.md, "Inbound
    // webhooks"): the step's people are paged by their own rules on those channels only. A member
    // a channel targets by name is reached on that channel at once, on their contact for it.
    const stepChannels = (p: UserPagingRules) => (inStep.has(p.userId) ? formB!.filter((ch) => !targeted.has(ch)) : []);
    const formBPersonJobs = (p: UserPagingRules): PageJob[] => {
      const channels = stepChannels(p);
      const byRules = ruleJobs(p).filter((j) => channels.includes(j.channel));
      // Someone with no rule on any of the listed channels is still paged, at once on those channels,
      // as every webhook paged before its channels became a limit: the limit never leaves a person unpaged.
      return [...(byRules.length > 0 ? byRules : formBJobs(p, channels)), ...formBJobs(p, byTarget.get(p.userId) ?? [])];
    };
    const jobsOf = (p: UserPagingRules): PageJob[] => (formB ? formBPersonJobs(p) : ruleJobs(p));
    if (input.decisionSeq !== undefined) {
      const names = await targetNames(k, targets, people);
      const resolution: StepResolution = {
        stepIndex: input.step,
        cycle: input.cycle ?? 0,
        source: c.steps ? 'policy' : 'owning_team',
        service: c.service,
        policy: c.steps ? c.policy : null,
        formB: c.channels && formB && { configured: c.channels, severity: c.severity, paging: formB },
        targets: targets.map((t) => ({ ...t, name: names.get(t.id) ?? null })),
        people: people.map((p) => ({
          userId: p.userId,
          email: p.email,
          pages: jobsOf(p).map((j) => ({ channel: j.channel, delaySeconds: j.delaySeconds })),
          disabled: disabled.get(p.userId) ?? [],
        })),
      };
      const { data, message } = pagingDecision(resolution);
      await recordPagingDecision(k, { incidentId: input.incidentId, seq: input.decisionSeq, message, data });
    }
    return people.flatMap(jobsOf);
  }

  /**
   * Responders a person added (docs/responding.md): who the targets are now, each paged through
   * their own notification rules, and one entry saying who asked, whom it reached and who could
   * not be paged; the pages follow as the workflow schedules them.
   */
  async function responderRecipients(
    input: ResponderRecipientsInput,
  ): Promise<{ jobs: PageJob[]; seq: number; message: string; data: Record<string, unknown> }> {
    const k = knex();
    const c = await pagingContext(k, input.incidentId);
    const targets = await resolveTargets(input.targets, new Date(input.at));
    const { people } = await pagingPeople(k, [...new Set(targets.flatMap((t) => t.userIds))], c.organizationId);
    const names = await targetNames(k, targets, people);
    const jobs = people.flatMap(ruleJobs);
    const reached = targets.map((t) => names.get(t.id) ?? `${t.type} ${t.id}`).join(', ');
    const notPaged = people.filter((p) => ruleJobs(p).length === 0).map((p) => p.email);
    const message = [
      `Responders added: ${reached}`,
      notPaged.length ? `not paged (no usable contact method): ${notPaged.join(', ')}` : null,
      input.message ? `“${input.message}”` : null,
    ]
      .filter(Boolean)
      .join('; ');
    const data = {
      message: input.message ?? null,
      targets: targets.map((t) => ({ type: t.type, id: t.id, name: names.get(t.id) ?? null, user_ids: t.userIds })),
      people: people.map((p) => ({
        user_id: p.userId,
        email: p.email,
        pages: ruleJobs(p).map((j) => ({ channel: j.channel, delay_seconds: j.delaySeconds })),
      })),
    };
    const written = await recordResponderEntry(k, {
      incidentId: input.incidentId,
      entryId: input.entryId,
      seq: input.seq,
      type: 'responders_added',
      actor: input.actor,
      message,
      data,
      eventType: 'incident.responders_added',
      at: input.at,
    });
    return { jobs, seq: written?.seq ?? input.seq, message, data };
  }

  return { planEscalation, stepRecipients, responderRecipients };
}

/** A targeted member's pages on the channels that name them, at once; email falls back to their login. */
function formBJobs(p: UserPagingRules, channels: ReturnType<typeof formBChannels>): PageJob[] {
  const jobs: PageJob[] = [];
  for (const channel of channels) {
    const contact = p.contacts.find((m) => m.type === channel);
    const address = contact?.address ?? (channel === 'email' ? p.email : undefined);
    if (address) jobs.push({ userId: p.userId, contactMethodId: contact?.id ?? null, channel, address, delaySeconds: 0 });
  }
  return jobs;
}
