import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import {
  DRILL_MAX_PEOPLE,
  DRILL_TARGET_MIN_GAP_SECONDS,
  DRILL_WORKSPACE_MAX_PER_HOUR,
  drillLatencyMs,
  planDrill,
  RECURRING_DRILL_SKIP_SECONDS,
  skipRecentlyDrilled,
  withinAckWindow,
  type DrillChannel,
  type DrillResultStatus,
  type DrillTarget,
  type PlannedDrillResult,
  type RecentDrillSend,
} from '../../domain/drills';
import type { ChannelId } from '../../domain/channels';
import type { Plan } from '../../domain/plans';
import { knexOf } from '../../db/knex';
import { iso, isoOrNull } from '../../db/timestamps';
import { recordAudit, type AuditActor } from '../audit';
import { invalid, notFound } from '../errors';
import { drillPeople, drillPeopleIds } from './targets';

/** The one writer of `drills` and `drill_results` (docs/drills.md). */

export interface DrillResultJson {
  user_id: string;
  user_name: string;
  channel: string | null;
  contact_method_id: string | null;
  status: DrillResultStatus;
  latency_ms: number | null;
  acknowledged_at: string | null;
  error: string | null;
}

export interface DrillJson {
  id: string;
  target: DrillTarget;
  channels: string[] | null;
  drill_schedule_id: string | null;
  created_at: string;
  finished_at: string | null;
  results: DrillResultJson[];
}

/** Refused because the target or the workspace was drilled too recently; retry after `retryAfterSeconds`. */
export class DrillRateLimited extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'DrillRateLimited';
  }
}

export interface NewDrill {
  /** Chosen by the caller when a retry must find the drill it wrote (a recurring drill's workflow). */
  id?: string;
  organizationId: string;
  target: DrillTarget;
  channels?: DrillChannel[];
  /** The member who started it; null for a recurring drill. */
  createdBy: string | null;
  drillScheduleId?: string | null;
  ackWindowSeconds: number;
  /** Started by a member (rate-limited, audited) or by a drill schedule (its cron limits it). */
  audit?: AuditActor;
}

/** A drill as written: its answer, and the results the workflow sends. */
export interface OpenedDrill {
  drill: DrillJson;
  pendingResultIds: string[];
}

/**
 * Resolves the target's people and writes the drill with one result per person × channel, in one
 * transaction under the workspace's drill lock. Manual drills are rate-limited
 * (DRILL_TARGET_MIN_GAP_SECONDS, DRILL_WORKSPACE_MAX_PER_HOUR); a recurring drill skips whom a
 * drill sent the same channel within the hour. Nothing is sent here: the drill workflow sends the pending results.
 */
export async function openDrill(orm: MikroORM, input: NewDrill, now = new Date()): Promise<OpenedDrill> {
  const userIds = await drillPeopleIds(orm, input.organizationId, input.target, now);
  if (userIds.length > DRILL_MAX_PEOPLE) throw invalid(`target: ${userIds.length} people would be paged; a drill pages at most ${DRILL_MAX_PEOPLE}`);
  const k = knexOf(orm);
  const org = await k('organizations').select('plan').where({ id: input.organizationId }).first();
  if (!org) throw notFound('workspace not found');
  const planned = planDrill(await drillPeople(k, input.organizationId, userIds), input.channels, org.plan as Plan);
  const drillId = input.id ?? randomUUID();
  const resultRows = (results: PlannedDrillResult[]) =>
    results.map((p) => ({
      id: randomUUID(),
      drill_id: drillId,
      organization_id: input.organizationId,
      user_id: p.userId,
      user_name: p.userName.slice(0, 255),
      channel: p.channel,
      contact_method_id: p.contactMethodId,
      address: p.address,
      status: p.status,
      error: p.error,
      created_at: now,
    }));
  let rows: ReturnType<typeof resultRows> = [];
  await k.transaction(async (trx) => {
    // One drill of the workspace at a time decides: a racing one sees this one's results once it commits.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`drill:${input.organizationId}`]);
    if (input.audit) await refuseIfTooSoon(trx, input, now);
    const recent = input.drillScheduleId ? await recentSends(trx, { ...input, drillScheduleId: input.drillScheduleId }, userIds, now) : [];
    rows = resultRows(skipRecentlyDrilled(planned, recent));
    await trx('drills').insert({
      id: drillId,
      organization_id: input.organizationId,
      target_type: input.target.type,
      target_id: input.target.id,
      channels: input.channels ? JSON.stringify(input.channels) : null,
      created_by: input.createdBy,
      drill_schedule_id: input.drillScheduleId ?? null,
      ack_window_seconds: input.ackWindowSeconds,
      created_at: now,
    });
    if (rows.length) await trx('drill_results').insert(rows);
    if (input.audit) {
      await recordAudit(
        trx,
        {
          organizationId: input.organizationId,
          actor: input.audit,
          action: 'drill.start',
          targetType: 'drill',
          targetId: drillId,
          details: { target_type: input.target.type, target_id: input.target.id, channels: input.channels ?? null, results: rows.length },
        },
        now,
      );
    }
  });
  return { drill: await getDrill(orm, input.organizationId, drillId), pendingResultIds: rows.filter((r) => r.status === 'pending').map((r) => r.id) };
}

/** A drill already written, with its results still to send (a retried open answers it again). */
export async function openedDrill(k: Knex, drillId: string): Promise<{ drillId: string; resultIds: string[] } | undefined> {
  const drill = await k('drills').where({ id: drillId }).first('id');
  if (!drill) return undefined;
  const pending = await k('drill_results').select('id').where({ drill_id: drillId, status: 'pending' }).orderBy('id');
  return { drillId, resultIds: pending.map((r: { id: string }) => r.id) };
}

/**
 * What other drills of the workspace sent (or are sending) these people within
 * RECURRING_DRILL_SKIP_SECONDS: manual ones and other schedules' (a schedule's own cron fires it at
 * most hourly, so its previous firing, an hour ago to the second, is not one).
 */
async function recentSends(trx: Knex, input: { organizationId: string; drillScheduleId: string }, userIds: string[], now: Date): Promise<RecentDrillSend[]> {
  if (userIds.length === 0) return [];
  const rows: Array<{ user_id: string; channel: ChannelId; drill_id: string; created_at: Date }> = await trx('drill_results as r')
    .join('drills as d', 'd.id', 'r.drill_id')
    .select('r.user_id', 'r.channel', 'r.drill_id', 'r.created_at')
    .where('r.organization_id', input.organizationId)
    .whereIn('r.user_id', userIds)
    .whereIn('r.status', ['pending', 'delivered'])
    .whereNotNull('r.channel')
    .andWhere('r.created_at', '>', new Date(now.getTime() - RECURRING_DRILL_SKIP_SECONDS * 1000))
    .andWhere((q) => q.whereNull('d.drill_schedule_id').orWhereNot('d.drill_schedule_id', input.drillScheduleId));
  return rows.map((r) => ({ userId: r.user_id, channel: r.channel, drillId: r.drill_id, at: new Date(r.created_at) }));
}

/** One drill per target a minute, DRILL_WORKSPACE_MAX_PER_HOUR a workspace: the caller holds the workspace's drill lock. */
async function refuseIfTooSoon(trx: Knex, input: NewDrill, now: Date): Promise<void> {
  const since = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  const last = await trx('drills')
    .where({ organization_id: input.organizationId, target_id: input.target.id })
    .whereNull('drill_schedule_id')
    .andWhere('created_at', '>', since(DRILL_TARGET_MIN_GAP_SECONDS))
    .max({ at: 'created_at' })
    .first();
  if (last?.at) {
    const wait = Math.max(1, Math.ceil(DRILL_TARGET_MIN_GAP_SECONDS - (now.getTime() - new Date(last.at).getTime()) / 1000));
    throw new DrillRateLimited(`this ${input.target.type} was drilled less than ${DRILL_TARGET_MIN_GAP_SECONDS} s ago; retry in ${wait} s`, wait);
  }
  const [{ n }] = await trx('drills')
    .where({ organization_id: input.organizationId })
    .whereNull('drill_schedule_id')
    .andWhere('created_at', '>', since(3600))
    .count({ n: '*' });
  if (Number(n) >= DRILL_WORKSPACE_MAX_PER_HOUR) {
    throw new DrillRateLimited(`this workspace started ${DRILL_WORKSPACE_MAX_PER_HOUR} drills in the last hour; retry later`, 300);
  }
}

const resultJson = (r: Record<string, unknown>): DrillResultJson => ({
  user_id: r.user_id as string,
  user_name: r.user_name as string,
  channel: (r.channel as string | null) ?? null,
  contact_method_id: (r.contact_method_id as string | null) ?? null,
  status: r.status as DrillResultStatus,
  latency_ms: (r.latency_ms as number | null) ?? null,
  acknowledged_at: isoOrNull(r.acknowledged_at as Date | null),
  error: (r.error as string | null) ?? null,
});

const drillJson = (d: Record<string, unknown>, results: Array<Record<string, unknown>>): DrillJson => ({
  id: d.id as string,
  target: { type: d.target_type as DrillTarget['type'], id: d.target_id as string },
  channels: (d.channels as string[] | null) ?? null,
  drill_schedule_id: (d.drill_schedule_id as string | null) ?? null,
  created_at: iso(d.created_at as Date),
  finished_at: isoOrNull(d.finished_at as Date | null),
  results: results.map(resultJson),
});

const RESULT_ORDER = [{ column: 'user_name' }, { column: 'user_id' }, { column: 'channel' }, { column: 'id' }];

/** One drill of the workspace with its results (404 otherwise). */
export async function getDrill(orm: MikroORM, organizationId: string, id: string): Promise<DrillJson> {
  const k = knexOf(orm);
  const drill = await k('drills').where({ id, organization_id: organizationId }).first();
  if (!drill) throw notFound(`drill ${id} not found`);
  return drillJson(drill, await k('drill_results').where({ drill_id: id }).orderBy(RESULT_ORDER));
}

/** The workspace's drills, newest first, a page at a time, with their results. */
export async function listDrills(
  orm: MikroORM,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<{ drills: DrillJson[]; total: number }> {
  const k = knexOf(orm);
  const [{ n }] = await k('drills').where({ organization_id: organizationId }).count({ n: '*' });
  const drills = await k('drills')
    .where({ organization_id: organizationId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
  const results = drills.length
    ? await k('drill_results')
        .whereIn(
          'drill_id',
          drills.map((d: { id: string }) => d.id),
        )
        .orderBy(RESULT_ORDER)
    : [];
  return {
    drills: drills.map((d: Record<string, unknown>) =>
      drillJson(
        d,
        results.filter((r: { drill_id: string }) => r.drill_id === d.id),
      ),
    ),
    total: Number(n),
  };
}

/** What sending one result needs: the row, and when its drill started. */
export interface DrillSendRow {
  id: string;
  drill_id: string;
  organization_id: string;
  user_id: string;
  channel: string;
  address: string;
  status: DrillResultStatus;
  reply_code: number | null;
  drill_created_at: Date;
  ack_window_seconds: number;
}

export async function drillSendRow(k: Knex, resultId: string): Promise<DrillSendRow | undefined> {
  return k('drill_results as r')
    .join('drills as d', 'd.id', 'r.drill_id')
    .select('r.id', 'r.drill_id', 'r.organization_id', 'r.user_id', 'r.channel', 'r.address', 'r.status', 'r.reply_code', {
      drill_created_at: 'd.created_at',
      ack_window_seconds: 'd.ack_window_seconds',
    })
    .where('r.id', resultId)
    .first();
}

/** Keeps the reply code a result's SMS carries (set once: a retry sends the same code). */
export async function keepDrillReplyCode(k: Knex, resultId: string, code: number): Promise<number> {
  const [row] = await k('drill_results')
    .where({ id: resultId })
    .update({ reply_code: k.raw('coalesce(reply_code, ?)', [code]) }, ['reply_code']);
  return Number(row.reply_code);
}

/** The provider took it: delivered, with the latency from the drill's start. */
export async function markDrillResultDelivered(
  k: Knex,
  row: Pick<DrillSendRow, 'id' | 'drill_created_at'>,
  sent: { provider: string; providerMessageId: string | null },
  at = new Date(),
): Promise<void> {
  await k('drill_results')
    .where({ id: row.id, status: 'pending' })
    .update({
      status: 'delivered',
      provider: sent.provider.slice(0, 32),
      provider_message_id: sent.providerMessageId?.slice(0, 255) ?? null,
      delivered_at: at,
      latency_ms: drillLatencyMs(new Date(row.drill_created_at), at),
      error: null,
    });
}

/** The provider refused it, or retries ran out: failed, with the provider's words. */
export async function markDrillResultFailed(k: Knex, resultId: string, error: string): Promise<void> {
  await k('drill_results')
    .where({ id: resultId, status: 'pending' })
    .update({ status: 'failed', error: error.slice(0, 2000) });
}

/** A provider's later delivery report (Twilio StatusCallback) that it failed after all. */
export async function recordDrillDeliveryFailure(k: Knex, report: { providerMessageId: string; error: string }): Promise<void> {
  await k('drill_results')
    .where({ provider_message_id: report.providerMessageId, status: 'delivered' })
    .update({ status: 'failed', error: report.error.slice(0, 2000) });
}

/** The acknowledgement window closed: the drill is finished (results keep what they had). */
export async function finishDrill(k: Knex, drillId: string, at = new Date()): Promise<void> {
  await k('drills').where({ id: drillId }).whereNull('finished_at').update({ finished_at: at });
}

/** The result an SMS reply answers: the newest drill SMS to that number with that code. */
export async function drillResultBySmsReply(k: Knex, from: string, code: number): Promise<{ id: string; created_at: Date } | undefined> {
  return k('drill_results').select('id', 'created_at').where({ address: from, reply_code: code, channel: 'sms' }).orderBy('created_at', 'desc').first();
}

/** What acknowledging a drill result did, in words for the reply. */
export interface DrillAcknowledgement {
  done: boolean;
  message: string;
}

/**
 * The person pressed acknowledge on a drill page: `acknowledged_at` is set once, if the drill's
 * window is still open. Never touches an incident.
 */
export async function acknowledgeDrillResult(orm: MikroORM, resultId: string, at = new Date()): Promise<DrillAcknowledgement> {
  const k = knexOf(orm);
  const row = await drillSendRow(k, resultId);
  if (!row) return { done: false, message: 'This drill page is not one we know.' };
  if (!withinAckWindow(new Date(row.drill_created_at), row.ack_window_seconds, at)) {
    return { done: false, message: 'This drill is over: the acknowledgement came too late to count.' };
  }
  const updated = await k('drill_results').where({ id: resultId }).whereNull('acknowledged_at').update({ acknowledged_at: at });
  return updated
    ? { done: true, message: 'Drill acknowledged. Thank you: no incident, nothing to do.' }
    : { done: false, message: 'This drill page was already acknowledged.' };
}
