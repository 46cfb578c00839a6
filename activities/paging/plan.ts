import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { EscalationStep, EscalationTarget } from '../../src/db/entities/escalation-policy';
import { formBChannels } from '../../src/domain/paging/form-b-channels';
import type { EscalationPlan, PageJob } from '../../src/domain/paging/escalation-plan';
import type { Severity } from '../../src/domain/severity';
import { notificationRulesFor, onCallUserIds } from '../../src/services/paging';
import { teamMemberIds } from '../../src/services/workspace';

interface PagingContext {
  organizationId: string;
  severity: Severity;
  owningTeamId: string;
  steps: EscalationStep[] | null;
  repeat: number;
  ackTimeoutSeconds: number | null;
  /** The Form B channel list of the source that opened the incident, if it has one. */
  channels: string[] | null;
}

/** Who an incident pages and how: its service's policy, or its source's Form B channel list. */
export function createPagingPlanActivities({ orm }: { orm: MikroORM }) {
  const knex = () => orm.em.fork().getKnex();

  async function context(incidentId: string): Promise<PagingContext> {
    const { rows } = (await knex().raw(
      `select i.organization_id, i.severity, i.owning_team_id, p.steps, p.repeat, p.ack_timeout_seconds,
              (select src.channels from alerts a join alert_sources src on src.id = a.source_id
                where a.incident_id = i.id order by a.created_at limit 1) as channels
         from incidents i
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
      steps: (row.steps as EscalationStep[] | null) ?? null,
      repeat: (row.repeat as number | null) ?? 0,
      ackTimeoutSeconds: (row.ack_timeout_seconds as number | null) ?? null,
      channels: (row.channels as string[] | null) ?? null,
    };
  }

  /** The plan the workflow runs: read once per TRIGGERED spell. */
  async function planEscalation({ incidentId }: { incidentId: string }): Promise<EscalationPlan> {
    const c = await context(incidentId);
    // Without a policy the owning team is paged once (on the source's channels for Form B,
    // else by each member's rules): an incident nobody hears about is the worst default.
    const kind = c.channels ? 'channels' : c.steps ? 'policy' : 'team';
    const stepDelays = c.steps ? c.steps.map((s) => s.delay_seconds) : [0];
    return { kind, stepDelays, repeat: c.steps ? c.repeat : 0, ackTimeoutSeconds: c.ackTimeoutSeconds };
  }

  async function usersOf(targets: EscalationTarget[], at: Date): Promise<string[]> {
    const ids = new Set<string>();
    for (const t of targets) {
      const found = t.type === 'user' ? [t.id] : t.type === 'schedule' ? await onCallUserIds(orm, t.id, at) : await teamMemberIds(orm, t.id);
      for (const id of found) ids.add(id);
    }
    return [...ids];
  }

  /** The pages step `step` sends, resolved at `at`: schedules answer who is on call then. */
  async function stepRecipients({ incidentId, step, at }: { incidentId: string; step: number; at: string }): Promise<PageJob[]> {
    const c = await context(incidentId);
    const targets: EscalationTarget[] = c.steps?.[step]?.targets ?? [{ type: 'team', id: c.owningTeamId }];
    const people = await notificationRulesFor(orm, await usersOf(targets, new Date(at)), { organizationId: c.organizationId });
    if (c.channels) {
      const channels = formBChannels(c.severity, c.channels);
      return people.flatMap((p) => {
        const jobs: PageJob[] = [];
        for (const channel of channels) {
          const contact = p.contacts.find((m) => m.type === channel);
          const address = contact?.address ?? (channel === 'email' ? p.email : undefined);
          if (address) jobs.push({ userId: p.userId, contactMethodId: contact?.id ?? null, channel, address, delaySeconds: 0 });
        }
        return jobs;
      });
    }
    return people.flatMap((p) =>
      p.rules.map((r) => ({ userId: p.userId, contactMethodId: r.contactMethodId, channel: r.type, address: r.address, delaySeconds: r.delaySeconds })),
    );
  }

  return { planEscalation, stepRecipients };
}
