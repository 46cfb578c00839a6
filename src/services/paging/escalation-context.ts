/**
 * What escalation planning reads (the paging plan activities call these): an incident's policy
 * or Form B channels, a webhook's member targets, target names and disabled contacts for the
 * paging decision on the timeline.
 */
import { displayAddress } from '../../domain/channels';
import type { Knex } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { EscalationStep } from '../../db/entities/escalation-policy';
import type { ChannelId } from '../../domain/channels';
import type { DisabledContact, ResolvedTarget } from '../../domain/paging/decisions';
import type { Severity } from '../../domain/severity';
import { memberTargetChannels, type WebhookTargets } from '../../domain/inbound-webhook-targets';
import type { UserPagingRules } from './notification-rules';

/** What an escalation step reads about its incident: the workspace, the service's policy, the Form B source. */
export interface PagingContext {
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

export async function pagingContext(k: Knex, incidentId: string): Promise<PagingContext> {
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

/** The webhook's member targets still in the workspace, and the paging channels each takes. */
export async function memberTargets(k: Knex, c: PagingContext, formB: ChannelId[]): Promise<Map<string, ChannelId[]>> {
  const wanted = memberTargetChannels(c.targetChannels, formB);
  if (wanted.size === 0) return wanted;
  const members = new Set<string>(
    await k('memberships')
      .where({ organization_id: c.organizationId })
      .whereIn('user_id', [...wanted.keys()])
      .pluck('user_id'),
  );
  return new Map([...wanted].filter(([userId]) => members.has(userId)));
}

/** Target names by id: schedules' and teams' names, users' emails (absent: no longer exists). */
export async function targetNames(k: Knex, targets: ResolvedTarget[], people: UserPagingRules[]): Promise<Map<string, string>> {
  const names = new Map(people.map((p) => [p.userId, p.email]));
  const ids = (type: ResolvedTarget['type']) => targets.filter((t) => t.type === type).map((t) => t.id);
  if (ids('schedule').length + ids('team').length === 0) return names;
  const { rows } = (await k.raw('select id, name from schedules where id = any(?::uuid[]) union all select id, name from teams where id = any(?::uuid[])', [
    pgArray(ids('schedule')),
    pgArray(ids('team')),
  ])) as { rows: Array<{ id: string; name: string }> };
  for (const r of rows) names.set(r.id, r.name);
  return names;
}

/** A uuid[] literal: knex would spread a JS array into a list of parameters. */
const pgArray = (ids: string[]) => `{${ids.join(',')}}`;

/** Contact methods a provider disabled, per person: why a rule of theirs did not page. */
const UNVERIFIED = 'not verified: the code texted to it was never entered';

export async function disabledContacts(k: Knex, userIds: string[], organizationId: string): Promise<Map<string, DisabledContact[]>> {
  const out = new Map<string, DisabledContact[]>();
  if (userIds.length === 0) return out;
  const rows = await k('contact_methods')
    .select('user_id', 'type', 'address', 'disabled_at', 'disabled_reason')
    .whereIn('user_id', userIds)
    .where({ organization_id: organizationId })
    // Unverified phone numbers are not paged either (./notification-rules.ts): say so.
    .andWhere((q) => q.whereNotNull('disabled_at').orWhereNull('verified_at'))
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), disabledContact(r)]);
  return out;
}

/** How a contact method that does not page shows in a paging decision. */
export function disabledContact(r: { type: ChannelId; address: string; disabled_at: unknown; disabled_reason: string | null }): DisabledContact {
  return { channel: r.type, address: displayAddress(r.type, r.address), reason: r.disabled_at ? r.disabled_reason : UNVERIFIED };
}
