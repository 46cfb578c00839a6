/**
 * The Slack consumer of the incident-event feed (docs/chat.md, "Slack messages"): a new incident
 * posts one Block Kit message in its service's channel; each later change updates that message
 * and replies in its thread. In every API process, off the paging path: it shares nothing with
 * paging but the database, and a Slack outage only makes its own queue wait.
 */
import { createHash } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { WebClient } from '@slack/web-api';
import { knexOf } from '../../../db/knex';
import type { IncidentEventBody } from '../../../domain/incident-events';
import type { Logger } from '../../../logger';
import { FeedQueueConsumer, recordAttempt, type AttemptOutcome, type DueDelivery } from '../../../services/incident-feed';
import type { Sealer } from '../../../services/sealing/seal';
import { planHasChat, pagingNow, serviceName, statusChangeVia } from '../../../services/chat/message-context';
import { findSlackInstallation, openBotToken } from '../installations';
import {
  fanOutSlackEvents,
  laneGaveUp,
  parkSlackChannel,
  parkSlackDelivery,
  recordReplyTs,
  replyTsOf,
  skipSlackDelivery,
  SLACK_DELIVERIES,
} from './deliveries';
import { findSlackMessage, keepSlackMessage, updatedSlackMessage } from './store';
import type { FeedConsumer, FeedConsumerDeps } from '../../types';
import { isPermanentSlackError, PERMANENT_SLACK_ERRORS, slackClient, slackErrorCode } from '../web-api';
import { slackSettings } from '../config';
import { incidentMessage, type SlackMessage } from './blocks';
import { afterSlackFailure, planAttempt, showsPagingNow, threadReply, wantsVia } from './changes';

export interface SlackDelivererDeps {
  orm: MikroORM;
  sealer: Sealer;
  logger: Logger;
  /** The dashboard's base URL: messages link to `${appUrl}/incidents/${id}`. */
  appUrl: string;
  /** The Web API base URL (SLACK_API_URL). */
  apiUrl: string;
}

const CLAIM_ROWS = 32;
/** Longer than an attempt can take (three calls, each 3 s with two quick retries): a live process keeps its lease. */
const LEASE_MS = 60_000;
/** Why a delivery parked without asking Slack when the bot token cannot be opened. */
const TOKEN_UNREADABLE = 'the bot token cannot be opened (KLAXON_SECRET changed): reconnect Slack';
/** Reasons that give up an incident's lane in a channel: its later events go without a call. */
const LANE_GIVEN_UP = [...PERMANENT_SLACK_ERRORS, TOKEN_UNREADABLE];

/** A Slack call that failed, with Slack's error code. */
class SlackCallFailed extends Error {
  constructor(
    readonly code: string,
    /** The HTTP status when Slack answered other than 200 (503 while it is down). */
    readonly statusCode: number | null = null,
  ) {
    super(code);
  }
}

export class SlackMessageDeliverer extends FeedQueueConsumer implements FeedConsumer {
  constructor(private readonly deps: SlackDelivererDeps) {
    super({ name: 'Slack message delivery', orm: deps.orm, logger: deps.logger, queue: SLACK_DELIVERIES, claimRows: CLAIM_ROWS, leaseMs: LEASE_MS });
  }

  protected fanOut(trx: Knex.Transaction, limit: number): Promise<number> {
    return fanOutSlackEvents(trx, limit);
  }

  /** One attempt of one delivery, and what follows from it. */
  protected async attempt(row: DueDelivery): Promise<void> {
    const knex = knexOf(this.deps.orm);
    const event = row.event as unknown as IncidentEventBody;
    const where = { organizationId: event.organization_id, channelId: row.target_id };
    const installation = await findSlackInstallation(this.deps.orm, where.organizationId);
    if (!installation) return skipSlackDelivery(knex, row.id, 'skipped: Slack is not connected');
    if (!(await planHasChat(knex, where.organizationId))) return skipSlackDelivery(knex, row.id, 'skipped: the plan has no chat');
    const token = openBotToken(this.deps.sealer, installation);
    // An earlier event of this incident met a permanent error here: no call, no second log line.
    if (await laneGaveUp(knex, { id: row.id, channelId: where.channelId, incidentId: row.incident_id }, LANE_GIVEN_UP)) {
      return parkSlackDelivery(knex, row.id, 'parked: Slack refused an earlier event of this incident in this channel');
    }
    if (!token) return this.giveUp(row, where, TOKEN_UNREADABLE);
    const started = Date.now();
    try {
      await this.deliver(slackClient(this.deps.apiUrl, token), row, event);
      const outcome: AttemptOutcome = { delivered: true, statusCode: null, error: null, latencyMs: Date.now() - started };
      await recordAttempt(knex, SLACK_DELIVERIES, row, outcome, { retryInMs: null, park: false });
    } catch (err) {
      const code = err instanceof SlackCallFailed ? err.code : slackErrorCode(err);
      const statusCode = err instanceof SlackCallFailed ? err.statusCode : null;
      const next = afterSlackFailure(code, row.attempts, isPermanentSlackError);
      const outcome: AttemptOutcome = { delivered: false, statusCode, error: code, latencyMs: Date.now() - started };
      await recordAttempt(knex, SLACK_DELIVERIES, row, outcome, next);
      if (next.permanent) await this.giveUp(row, where, code);
      else if (next.park) this.deps.logger.warn({ ...logFields(row, where), error: code }, 'Slack message delivery given up after its retries');
    }
  }

  /** Posts or updates the incident's message, then replies in its thread, recording each ts as soon as Slack answers. */
  private async deliver(client: WebClient, row: DueDelivery, event: IncidentEventBody): Promise<void> {
    const knex = knexOf(this.deps.orm);
    const incident = event.incident!;
    const channel = row.target_id;
    const message = incidentMessage({
      id: incident.id,
      number: incident.number,
      title: incident.title,
      severity: incident.severity,
      status: incident.status,
      serviceName: await serviceName(knex, incident.service_id),
      pagingNow: showsPagingNow(incident.status) ? await pagingNow(knex, incident.id) : [],
      url: `${this.deps.appUrl}/incidents/${incident.id}`,
    });
    const contentHash = hashOf(message);
    const via = wantsVia(event) && event.incident ? await statusChangeVia(knex, incident.id, incident.status, event.created_at) : null;
    const reply = threadReply(event, via);
    const kept = await findSlackMessage(knex, incident.id, channel);
    const plan = planAttempt({ kept, contentHash, reply, repliedTs: reply === null ? null : await replyTsOf(knex, row.id) });
    const keep = (ts: string) =>
      keepSlackMessage(knex, { incidentId: incident.id, organizationId: event.organization_id, channelId: channel, ts, contentHash });
    let ts = kept?.ts;
    if (plan.message === 'post') {
      ts = await post(client, { channel, ...message });
      await keep(ts);
    } else if (plan.message === 'update') {
      try {
        await call(() => client.chat.update({ channel, ts: ts!, ...message }));
        await updatedSlackMessage(knex, { incidentId: incident.id, channelId: channel }, contentHash);
      } catch (err) {
        // Deleted in Slack: the incident gets a fresh message.
        if (!(err instanceof SlackCallFailed && err.code === 'message_not_found')) throw err;
        ts = await post(client, { channel, ...message });
        await keep(ts);
      }
    }
    if (plan.reply && reply) {
      const replyTs = await post(client, { channel, thread_ts: ts!, text: reply });
      await recordReplyTs(knex, row.id, replyTs);
    }
  }

  /** Parks the row and every pending row of its channel, and says so once (never the token). */
  private async giveUp(row: DueDelivery, where: { organizationId: string; channelId: string }, reason: string): Promise<void> {
    const knex = knexOf(this.deps.orm);
    const parked = await parkSlackChannel(knex, where, reason);
    this.deps.logger.warn({ ...logFields(row, where), error: reason, parked }, 'Slack message delivery parked: Slack refused it for good');
  }
}

const logFields = (row: DueDelivery, where: { organizationId: string; channelId: string }) => ({
  organization_id: where.organizationId,
  slack_channel_id: where.channelId,
  incident_id: row.incident_id,
  event_id: row.event_id,
});

const hashOf = (message: SlackMessage): string => createHash('sha256').update(JSON.stringify(message)).digest('hex');

/** A Web API call, its failure as Slack's error code. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const status = (err as { statusCode?: unknown }).statusCode;
    throw new SlackCallFailed(slackErrorCode(err), typeof status === 'number' ? status : null);
  }
}

/** `chat.postMessage`; returns the new message's ts. */
async function post(client: WebClient, args: { channel: string; text: string; blocks?: SlackMessage['blocks']; thread_ts?: string }): Promise<string> {
  const res = await call(() => client.chat.postMessage({ ...args, unfurl_links: false, unfurl_media: false }));
  if (!res.ts) throw new SlackCallFailed('no_ts_in_answer');
  return res.ts;
}

/** The registry's feed consumer: none when the Slack app is not configured (nothing to post through). */
export function createSlackFeedConsumer(deps: FeedConsumerDeps): FeedConsumer {
  const slack = slackSettings(deps.notify);
  if (!slack) return { start: () => undefined, stop: async () => undefined };
  return new SlackMessageDeliverer({ orm: deps.orm, sealer: deps.sealer, logger: deps.logger, appUrl: deps.appUrl, apiUrl: slack.apiUrl });
}
