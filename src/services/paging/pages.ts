/**
 * Pages: the one writer of `notifications` (one row per page sent to a person or an address:
 * its route, attempts and outcome). Writes come from the paging activities (claim, send,
 * settle) and from providers' delivery reports; the retention purge deletes rows for age. The
 * in-app notifications a page leaves are another table (./in-app-notifications.ts).
 */
import type { Knex } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import type { ChannelId } from '../../domain/channels';
import type { Plan } from '../../domain/plans';
import type { PageJob } from '../../domain/paging/escalation-plan';
import type { PageOutcome } from '../../domain/paging/page-outcome';
import { DRILL_SENDS_USED_SQL } from './quota-usage';

/** One page as the incident workflow asks for it (the send activity's input). */
export interface SendPageInput {
  incidentId: string;
  /** Chosen by the workflow: a retried attempt finds the row it wrote. */
  notificationId: string;
  /** The timeline seq the workflow reserved for this page's entry. */
  seq: number;
  step: number;
  job: PageJob;
  /**
   * A page a responder asked for (docs/responding.md, "Add responders"), not the escalation's: it
   * goes out while the incident is open (acknowledged or investigating too) and stops once a move
   * after its seq resolved or closed it.
   */
  requested?: true;
  /**
   * When the workflow's plan had the page fall due (ISO): the escalation step's time plus the
   * rule's delay. What the page is late by is measured from it (docs/reliability.md). Absent in
   * runs recorded before it was added.
   */
  dueAt?: string;
  /**
   * A failover send (docs/reliability.md, "Carriers"): the carriers the page already went
   * through, in order; the last one failed it or never confirmed it. This attempt takes the next.
   */
  failover?: { tried: string[] };
}

/** Where a page goes once quotas are applied: the rule's channel, or email instead. */
export interface PageRoute {
  channel: SendPageInput['job']['channel'];
  address: string;
  fallbackReason: string | null;
}

/** An attempt that may call the provider: how many attempts claimed the page, and how many of them after an unknown outcome. */
export interface ClaimedAttempt {
  attempts: number;
  unknownOutcomeRetries: number;
}

/**
 * Claims a send attempt (docs/architecture.md, "Paging"), the last thing before the provider call: one statement
 * checks that the incident is still TRIGGERED and has not moved since the page's seq was
 * reserved (an acknowledge and a re-trigger make a new spell, whose pages are its own), and
 * records the attempt as `sending`. The incident row is read FOR SHARE, so an acknowledge being
 * written either commits first (no page) or waits for the claim (the page had begun). A page
 * already `sending` was claimed by an attempt whose outcome nobody knows: the claim counts it,
 * and the timeline says so. Null: the incident no longer wants the page, or it is already done.
 */
export async function claimAttempt(k: Knex, input: SendPageInput, route: PageRoute, replyCode: number | null): Promise<ClaimedAttempt | null> {
  return (await claimStatement(k, input, route, replyCode)).claim;
}

/**
 * claimAttempt for a page the plan counts (its caller holds the quota's lock): the same statement
 * counts the person's pages on the channel this month (this page left out), as claimWithinQuota
 * needs them, and claims only while that count is under `limit`. One round trip where a count and
 * a claim took two; the count is read after the lock was taken (a statement of its own before).
 */
export async function claimUnderQuota(
  k: Knex,
  input: SendPageInput,
  route: PageRoute,
  replyCode: number | null,
  quota: { since: Date; statuses: readonly string[]; limit: number },
): Promise<{ used: number; claim: ClaimedAttempt | null }> {
  return claimStatement(k, input, route, replyCode, quota);
}

async function claimStatement(
  k: Knex,
  input: SendPageInput,
  route: PageRoute,
  replyCode: number | null,
  quota?: { since: Date; statuses: readonly string[]; limit: number },
): Promise<{ used: number; claim: ClaimedAttempt | null }> {
  const { job } = input;
  // Drill sends count against the same quota (./quota-usage.ts).
  const counted = quota
    ? `used as (
       select (select count(*)::int from notifications
                where user_id = :userId and channel = :channel and status = any(:statuses::text[]) and created_at >= :since and id <> :id)
            + (${DRILL_SENDS_USED_SQL}) as n
     ), `
    : '';
  const insert = `insert into notifications as n (id, organization_id, incident_id, user_id, contact_method_id, channel, target, provider, provider_message_id,
                                      status, error, reply_code, fallback_reason, escalation_step, attempts, unknown_outcome_retries, created_at, updated_at)
     select :id, organization_id, id, :userId, :contactMethodId, :channel, :target, null, null,
            'sending', null, :replyCode, :fallbackReason, :step, 1, 0, :now, :now
       from incident${quota ? ' where (select n from used) < :limit' : ''}
     on conflict (id) do update
        set status = 'sending', attempts = n.attempts + 1,
            unknown_outcome_retries = n.unknown_outcome_retries + (n.status = 'sending')::int,
            updated_at = excluded.updated_at
      where n.status in ('queued', 'sending')
     returning attempts, unknown_outcome_retries`;
  const { rows } = (await k.raw(
    `with ${counted}incident as (
       ${wantedIncident(input)}
     )${
       quota
         ? `, claimed as (${insert})
     select (select n from used) as used, c.attempts, c.unknown_outcome_retries from (select 1) as one left join claimed c on true`
         : `
     ${insert}`
     }`,
    {
      ...(quota ? { statuses: `{${quota.statuses.join(',')}}`, since: quota.since, limit: quota.limit } : {}),
      incidentId: input.incidentId,
      seq: input.seq,
      id: input.notificationId,
      userId: job.userId,
      contactMethodId: job.contactMethodId,
      channel: route.channel,
      target: route.address,
      replyCode,
      fallbackReason: route.fallbackReason,
      step: input.step,
      now: new Date(),
    },
  )) as { rows: Array<{ used?: number; attempts: number | null; unknown_outcome_retries: number | null }> };
  const row = rows[0];
  const claim = row && row.attempts !== null ? { attempts: row.attempts, unknownOutcomeRetries: row.unknown_outcome_retries ?? 0 } : null;
  return { used: Number(row?.used ?? 0), claim };
}

/** The incident a page is for, the person's email, and the page's row if an attempt wrote one. */
export interface PageContext {
  incident: {
    id: string;
    number: number;
    title: string;
    severity: string;
    status: string;
    organization_id: string;
    plan: Plan;
    service_name: string | null;
    /** The watchdog canary's workspace (docs/reliability.md): its pages go to nobody. */
    canary: boolean;
  };
  userEmail: string | null;
  page: PageRow | null;
}

export interface PageRow {
  status: string;
  channel: ChannelId;
  target: string;
  provider: string | null;
  error: string | null;
  fallback_reason: string | null;
  reply_code: number | null;
  unknown_outcome_retries: number;
}

/** A value another module reads in the same statement as the page's context: its CTEs, its expression, its (named) bindings. */
export interface AlsoRead {
  with: string;
  select: string;
  bindings: Record<string, unknown>;
}

/** The condition under which a first attempt's extra read acts: no attempt has written the page's row. */
export const PAGE_NOT_WRITTEN = 'not exists (select 1 from notifications where id = :notificationId)';

/**
 * One read: the incident as the page renders it, the plan, the person's email and the page's row;
 * with `also`, another module's value in the same statement (the reply code a text page carries).
 */
export async function readPageContext(k: Knex, input: SendPageInput, also?: AlsoRead): Promise<PageContext & { also?: unknown }> {
  const { rows } = (await k.raw(
    `${also ? `with ${also.with} ` : ''}select i.id, i.number, i.title, i.severity, i.status, i.organization_id, o.plan, o.canary, s.name as service_name,
            (select email from users where id = :userId) as user_email, case when n.id is null then null else to_jsonb(n) end as page
            ${also ? `, ${also.select} as also` : ''}
       from incidents i
       join organizations o on o.id = i.organization_id
       left join services s on s.id = i.service_id
       left join notifications n on n.id = :notificationId
      where i.id = :incidentId`,
    { ...also?.bindings, userId: input.job.userId, notificationId: input.notificationId, incidentId: input.incidentId },
  )) as { rows: Array<PageContext['incident'] & { user_email: string | null; page: PageRow | null; also?: unknown }> };
  const row = rows[0];
  if (!row) throw ApplicationFailure.nonRetryable(`incident ${input.incidentId} has no projection`, 'IncidentNotFound');
  const { user_email: userEmail, page, also: alsoValue, ...incident } = row;
  return { incident, userEmail, page, ...(also ? { also: alsoValue } : {}) };
}

/** Writes a final outcome (skipped, failed) on the page's row, creating it if no attempt did. */
export async function settlePage(k: Knex, input: SendPageInput, organizationId: string, o: PageOutcome): Promise<void> {
  const now = new Date();
  await k('notifications')
    .insert({
      id: input.notificationId,
      organization_id: organizationId,
      incident_id: input.incidentId,
      user_id: input.job.userId,
      contact_method_id: input.job.contactMethodId,
      channel: o.channel,
      target: o.target,
      provider: null,
      provider_message_id: null,
      status: o.status,
      error: o.error && clip(o.error),
      reply_code: null,
      fallback_reason: o.fallbackReason,
      escalation_step: input.step,
      created_at: now,
      updated_at: now,
    })
    .onConflict('id')
    .merge(['status', 'error', 'updated_at']);
}

const clip = (message: string) => message.slice(0, 2000);

/**
 * A provider call failed: `failed` (it refused for good), `queued` (it answered without taking
 * the page) or still `sending` (nobody knows whether it took it).
 */
export async function markAttemptFailed(k: Knex, notificationId: string, status: 'failed' | 'queued' | 'sending', error: string): Promise<void> {
  await k('notifications')
    .where({ id: notificationId })
    .update({ status, error: clip(error), updated_at: new Date() });
}

/** The provider took the page; `sent_at` keeps the first time (a delivery report's latency is measured from it). */
export async function markPageSent(k: Knex, notificationId: string, sent: { provider: string; providerMessageId: string | null }): Promise<void> {
  const now = new Date();
  // A carrier's report can beat this write (it settled the carrier attempt, recorded just before,
  // but found the page still `sending`): the page takes the report's outcome, not `sent`.
  const reported = k.raw(`(select a.status from carrier_attempts a where a.provider_message_id = ? and a.status in ('delivered', 'failed') limit 1)`, [
    sent.providerMessageId,
  ]);
  const reportedError = k.raw(`(select a.error from carrier_attempts a where a.provider_message_id = ? and a.status = 'failed' limit 1)`, [
    sent.providerMessageId,
  ]);
  await k('notifications')
    .where({ id: notificationId })
    .update({
      status: sent.providerMessageId === null ? 'sent' : k.raw(`coalesce(?, 'sent')`, [reported]),
      provider: sent.provider,
      provider_message_id: sent.providerMessageId,
      error: sent.providerMessageId === null ? null : reportedError,
      updated_at: now,
      sent_at: k.raw('coalesce(sent_at, ?)', [now]),
    });
}

/**
 * A provider's delivery report on a page it took: `delivered` or `failed`, only while the page is
 * still `queued` or `sent` (a late report never undoes a settled outcome).
 */
export async function recordDeliveryReport(
  k: Knex,
  report: { providerMessageId: string; status: 'delivered' | 'failed'; error: string | null },
): Promise<Array<{ id: string; incidentId: string; channel: string }>> {
  const rows = (await k('notifications')
    .where({ provider_message_id: report.providerMessageId })
    .whereIn('status', ['queued', 'sent'])
    .update({ status: report.status, error: report.error, updated_at: new Date() })
    .returning(['id', 'incident_id', 'channel'])) as Array<{ id: string; incident_id: string; channel: string }>;
  return rows.map((r) => ({ id: r.id, incidentId: r.incident_id, channel: r.channel }));
}

/**
 * Claims a page for the next carrier (docs/reliability.md, "Carriers"): the page went out through
 * `from`, which failed it or never confirmed it, and the incident still wants it (the same check
 * as claimAttempt's). The row goes back to `sending`, so a crash during the next carrier's call is
 * an unknown outcome like any other. Null: the incident moved on, a report confirmed the page
 * meanwhile, or another attempt claimed it.
 */
export async function claimFailover(k: Knex, input: SendPageInput, from: string): Promise<ClaimedAttempt | null> {
  const { rows } = (await k.raw(
    `with incident as (${wantedIncident(input)})
     update notifications n
        set status = 'sending', attempts = n.attempts + 1, updated_at = :now
      where n.id = :id and n.status in ('sent', 'failed') and n.provider = :from and exists (select 1 from incident)
      returning attempts, unknown_outcome_retries`,
    { incidentId: input.incidentId, seq: input.seq, id: input.notificationId, from, now: new Date() },
  )) as { rows: Array<{ attempts: number; unknown_outcome_retries: number }> };
  const row = rows[0];
  return row ? { attempts: row.attempts, unknownOutcomeRetries: row.unknown_outcome_retries } : null;
}

/**
 * The incident, locked FOR SHARE, only while it still wants the page: TRIGGERED with no move since
 * the page's seq (a page responders asked for: open, and not resolved or closed since).
 */
function wantedIncident(input: SendPageInput): string {
  return `select i.id, i.organization_id from incidents i
        where i.id = :incidentId and ${
          input.requested
            ? `i.status in ('TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING')
          and not exists (select 1 from timeline_entries t where t.incident_id = i.id and t.type = 'status_change' and t.seq > :seq and t.to_status in ('RESOLVED', 'CLOSED'))`
            : `i.status = 'TRIGGERED'
          and not exists (select 1 from timeline_entries t where t.incident_id = i.id and t.type = 'status_change' and t.seq > :seq)`
        }
        for share of i`;
}
