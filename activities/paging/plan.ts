import type { MikroORM } from '@mikro-orm/postgresql';
import type { Knex } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { EscalationStep, EscalationTarget } from '../../src/db/entities/escalation-policy';
import { pagingDecision, type DisabledContact, type ResolvedTarget, type StepResolution } from '../../src/domain/paging/decisions';
import { formBChannels } from '../../src/domain/paging/form-b-channels';
import type { EscalationPlan, PageJob } from '../../src/domain/paging/escalation-plan';
import type { ChannelId } from '../../src/domain/channels';
import type { Severity } from '../../src/domain/severity';
import { memberTargetChannels, type WebhookTargets } from '../../src/domain/webhook-targets';
import { recordPagingDecision } from '../../src/services/incident';
import { notificationRulesFor, onCallUserIds, type UserPagingRules } from '../../src/services/paging';
import { teamMemberIds } from '../../src/services/workspace';

interface PagingContext {
  organizationId: string;
  severity: Severity;
  owningTeamId: string;
  service: { id: string; name: string } | null;
  policy: { id: string; name: string } | null;
  steps: EscalationStep[] | null;
  repeat: number;
  ackTimeoutSeconds: number | null;
  /** The Form B channel list of the source that opened the incident, if it has one. */
  channels: string[] | null;
  /** That source's per-channel targets (dashboard `targetChannels`), if it has any. */
  targetChannels: WebhookTargets | null;
}

/** What stepRecipients is asked: a step at an instant; with `decisionSeq`, its decision goes on the timeline at that seq. */
export interface StepRecipientsInput {
  incidentId: string;
  step: number;
  at: string;
  /** Completed passes over the policy (for the decision's wording). */
  cycle?: number;
  decisionSeq?: number;
}

/** Who an incident pages and how: its service's policy, or its source's Form B channel list. */
export function createPagingPlanActivities({ orm }: { orm: MikroORM }) {
  const knex = () => orm.em.fork().getKnex();

  async function context(k: Knex, incidentId: string): Promise<PagingContext> {
    const { rows } = (await k.raw(
      `select i.organization_id, i.severity, i.owning_team_id, s.id as service_id, s.name as service_name,
              p.id as policy_id, p.name as policy_name, p.steps, p.repeat, p.ack_timeout_seconds,
              fb.channels, fb.target_channels
         from incidents i
         left join lateral (select src.channels, src.target_channels from alerts a join alert_sources src on src.id = a.source_id
                where a.incident_id = i.id order by a.created_at limit 1) fb on true
         left join services s on s.id = i.service_id
         left join escalation_policies p on p.id = s.escalation_policy_id
        where i.id = ?`,
      [incidentId],
    )) as { rows: Array<Record<string, unknown>> };
    const row = rows[0];
    if (!row) throw ApplicationFailure.nonRetryable(`incident ${incidentId} has no projection`, 'IncidentNotFound');
    return {
      organizationId: row.organization_id as string,
      severity: row.severity as Severity,
      owningTeamId: row.owning_team_id as string,
      service: row.service_id ? { id: row.service_id as string, name: row.service_name as string } : null,
      policy: row.policy_id ? { id: row.policy_id as string, name: row.policy_name as string } : null,
      steps: (row.steps as EscalationStep[] | null) ?? null,
      repeat: (row.repeat as number | null) ?? 0,
      ackTimeoutSeconds: (row.ack_timeout_seconds as number | null) ?? null,
      channels: (row.channels as string[] | null) ?? null,
      targetChannels: (row.target_channels as WebhookTargets | null) ?? null,
    };
  }

  /** The plan the workflow runs: read once per TRIGGERED spell. */
  async function planEscalation({ incidentId }: { incidentId: string }): Promise<EscalationPlan> {
    const c = await context(knex(), incidentId);
    // Without a policy the owning team is paged once (on the source's channels for Form B,
    // else by each member's rules): an incident nobody hears about is the worst default.
    const kind = c.channels ? 'channels' : c.steps ? 'policy' : 'team';
    const stepDelays = c.steps ? c.steps.map((s) => s.delay_seconds) : [0];
    return { kind, stepDelays, repeat: c.steps ? c.repeat : 0, ackTimeoutSeconds: c.ackTimeoutSeconds };
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
    const c = await context(k, input.incidentId);
    const stepTargets = await resolveTargets(c.steps?.[input.step]?.targets ?? [{ type: 'team', id: c.owningTeamId }], new Date(input.at));
    const formB = c.channels ? formBChannels(c.severity, c.channels) : null;
    // A webhook's member targets take their channels from the team, paged with the first step.
    const byTarget = formB && input.step === 0 ? await memberTargets(k, c, formB) : new Map<string, ChannelId[]>();
    const targeted = new Set([...byTarget.values()].flat());
    // Every channel targeted: the team is not paged at this step, so it is no target of it either.
    const teamPaged = !formB || formB.some((ch) => !targeted.has(ch));
    const targets = [...(teamPaged ? stepTargets : []), ...[...byTarget.keys()].map((id): ResolvedTarget => ({ type: 'user', id, name: null, userIds: [id] }))];
    const inStep = new Set(teamPaged ? stepTargets.flatMap((t) => t.userIds) : []);
    const userIds = [...new Set(targets.flatMap((t) => t.userIds))];
    const people = await notificationRulesFor(orm, userIds, { organizationId: c.organizationId });
    const channelsOf = (p: UserPagingRules) => formB!.filter((ch) => (inStep.has(p.userId) && !targeted.has(ch)) || byTarget.get(p.userId)?.includes(ch));
    const jobsOf = (p: UserPagingRules): PageJob[] => (formB ? formBJobs(p, channelsOf(p)) : ruleJobs(p));
    if (input.decisionSeq !== undefined) {
      const [names, disabled] = await Promise.all([targetNames(k, targets, people), disabledContacts(k, userIds, c.organizationId)]);
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

  /** The webhook's member targets still in the workspace, and the paging channels each takes. */
  async function memberTargets(k: Knex, c: PagingContext, formB: ChannelId[]): Promise<Map<string, ChannelId[]>> {
    const wanted = memberTargetChannels(c.targetChannels, formB);
    if (wanted.size === 0) return wanted;
    const members = new Set<string>(await k('memberships').where({ organization_id: c.organizationId }).whereIn('user_id', [...wanted.keys()]).pluck('user_id'));
    return new Map([...wanted].filter(([userId]) => members.has(userId)));
  }

  return { planEscalation, stepRecipients };
}

/** A person's pages by their notification rules. */
function ruleJobs(p: UserPagingRules): PageJob[] {
  return p.rules.map((r) => ({ userId: p.userId, contactMethodId: r.contactMethodId, channel: r.type, address: r.address, delaySeconds: r.delaySeconds }));
}

/** A person's pages on a Form B source's channels, at once; email falls back to their login. */
function formBJobs(p: UserPagingRules, channels: ReturnType<typeof formBChannels>): PageJob[] {
  const jobs: PageJob[] = [];
  for (const channel of channels) {
    const contact = p.contacts.find((m) => m.type === channel);
    const address = contact?.address ?? (channel === 'email' ? p.email : undefined);
    if (address) jobs.push({ userId: p.userId, contactMethodId: contact?.id ?? null, channel, address, delaySeconds: 0 });
  }
  return jobs;
}

/** Target names by id: schedules' and teams' names, users' emails (absent: no longer exists). */
async function targetNames(k: Knex, targets: ResolvedTarget[], people: UserPagingRules[]): Promise<Map<string, string>> {
  const names = new Map(people.map((p) => [p.userId, p.email]));
  const ids = (type: ResolvedTarget['type']) => targets.filter((t) => t.type === type).map((t) => t.id);
  if (ids('schedule').length + ids('team').length === 0) return names;
  const { rows } = (await k.raw(
    'select id, name from schedules where id = any(?::uuid[]) union all select id, name from teams where id = any(?::uuid[])',
    [pgArray(ids('schedule')), pgArray(ids('team'))],
  )) as { rows: Array<{ id: string; name: string }> };
  for (const r of rows) names.set(r.id, r.name);
  return names;
}

/** A uuid[] literal: knex would spread a JS array into a list of parameters. */
const pgArray = (ids: string[]) => `{${ids.join(',')}}`;

/** Contact methods a provider disabled, per person: why a rule of theirs did not page. */
const UNVERIFIED = 'not verified: the code texted to it was never entered';

async function disabledContacts(k: Knex, userIds: string[], organizationId: string): Promise<Map<string, DisabledContact[]>> {
  const out = new Map<string, DisabledContact[]>();
  if (userIds.length === 0) return out;
  const rows = await k('contact_methods')
    .select('user_id', 'type', 'address', 'disabled_at', 'disabled_reason')
    .whereIn('user_id', userIds)
    .where({ organization_id: organizationId })
    // Unverified phone numbers are not paged either (src/services/paging/notification-rules.ts): say so.
    .andWhere((q) => q.whereNotNull('disabled_at').orWhereNull('verified_at'))
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  for (const r of rows) {
    const reason = r.disabled_at ? r.disabled_reason : UNVERIFIED;
    out.set(r.user_id, [...(out.get(r.user_id) ?? []), { channel: r.type, address: r.address, reason }]);
  }
  return out;
}
