import type { MikroORM } from '@mikro-orm/postgresql';
import { ApplicationFailure } from '@temporalio/common';
import { CHANNELS, type ChannelId } from '../src/domain/channels';
import type { DrillChannel, DrillTargetType } from '../src/domain/drills';
import { knexOf } from '../src/db/knex';
import { callProvider } from '../src/integrations/provider-call';
import { PERMANENT_DELIVERY_FAILURE, type ChannelSender, type OutgoingPage } from '../src/integrations/types';
import {
  claimDrillQuota,
  drillSendRow,
  finishDrill as finishDrillRow,
  keepDrillReplyCode,
  markDrillResultDelivered,
  markDrillResultFailed,
  openDrill,
  openedDrill,
  type DrillSendRow,
} from '../src/services/drills';
import { DomainError } from '../src/services/errors';
import { nextReplyCode } from '../src/services/paging/reply-codes';
import { signDrillAck } from '../src/services/response';
import type { OpenedDrillInput } from '../src/contracts/workflows';
import type { PageLinks } from './paging/render';

export interface DrillActivityDeps {
  orm: MikroORM;
  senders: Record<ChannelId, ChannelSender>;
  links: PageLinks;
}

/** Renders a drill page as its channel's integration declares: marked as a test, with its own reply code or acknowledge link. */
export function renderDrillPage(row: DrillSendRow, replyCode: number | null, links: PageLinks): OutgoingPage {
  const channel = row.channel as ChannelId;
  const render = CHANNELS[channel].renderDrill;
  if (!render) throw ApplicationFailure.nonRetryable(`drills do not send ${CHANNELS[channel].label} messages`, PERMANENT_DELIVERY_FAILURE);
  const expiresAt = Math.floor(Date.now() / 1000) + links.ttlSeconds;
  const ackToken = signDrillAck(links.secret, { drillResultId: row.id, expiresAt });
  // The result's id stands in for a notification id: providers only use it as a reference.
  const rendered = render({ resultId: row.id, drillId: row.drill_id, to: row.address, replyCode, appUrl: links.appUrl, ackToken, expiresAt });
  return { ...rendered, notificationId: row.id, channel, to: row.address };
}

/** What the drill workflow calls (docs/drills.md): open a recurring drill, send one result, record failures, finish. */
export function createDrillActivities({ orm, senders, links }: DrillActivityDeps) {
  const knex = () => knexOf(orm);

  /** Sends one person × channel through the channel's real sender; the result follows the provider's answer. */
  async function sendDrillPage(resultId: string): Promise<void> {
    const k = knex();
    const row = await drillSendRow(k, resultId);
    if (!row || row.status !== 'pending') return; // already settled by an earlier attempt
    // SMS and calls count against the plan's monthly quota; over it the result fails saying why.
    if (!(await claimDrillQuota(k, row))) return;
    const replyCode = CHANNELS[row.channel as ChannelId].replyCodes
      ? await keepDrillReplyCode(k, row.id, row.reply_code ?? (await nextReplyCode(k, row.address, row.id)))
      : null;
    try {
      const sent = await callProvider(senders[row.channel as ChannelId], renderDrillPage(row, replyCode, links));
      await markDrillResultDelivered(k, row, sent);
    } catch (err) {
      // A refusal is the drill's answer; anything else is retried by the activity's retry policy.
      if (err instanceof ApplicationFailure && err.type === PERMANENT_DELIVERY_FAILURE) return markDrillResultFailed(k, row.id, err.message);
      throw err;
    }
  }

  async function recordDrillPageFailed(input: { resultId: string; reason: string }): Promise<void> {
    await markDrillResultFailed(knex(), input.resultId, `gave up after retries: ${input.reason}`);
  }

  async function finishDrill(drillId: string): Promise<void> {
    await finishDrillRow(knex(), drillId);
  }

  /** A recurring drill fired: writes the drill for whoever the target resolves to now (null: the schedule or its target is gone). */
  async function openScheduledDrill({ drillScheduleId, drillId }: { drillScheduleId: string; drillId: string }): Promise<OpenedDrillInput | null> {
    const schedule = await knex()('drill_schedules').where({ id: drillScheduleId }).first();
    if (!schedule) return null;
    const already = await openedDrill(knex(), drillId);
    if (already) return { ...already, ackWindowSeconds: schedule.ack_window_seconds };
    try {
      const opened = await openDrill(orm, {
        id: drillId,
        organizationId: schedule.organization_id,
        target: { type: schedule.target_type as DrillTargetType, id: schedule.target_id },
        channels: (schedule.channels as DrillChannel[] | null) ?? undefined,
        createdBy: null,
        drillScheduleId,
        ackWindowSeconds: schedule.ack_window_seconds,
      });
      return { drillId: opened.drill.id, resultIds: opened.pendingResultIds, ackWindowSeconds: schedule.ack_window_seconds };
    } catch (err) {
      // The target is gone, or grew past what one drill pages: this firing drills nobody (retrying cannot help).
      if (err instanceof DomainError && (err.kind === 'not_found' || err.kind === 'invalid')) return null;
      throw err;
    }
  }

  return { sendDrillPage, recordDrillPageFailed, finishDrill, openScheduledDrill };
}
