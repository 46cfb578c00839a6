import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { escalateNowSignal, incidentWorkflowId, type Actor } from '../../../workflows/definitions';
import type { LifecycleOperation } from '../../domain/incident-lifecycle';
import { parseSmsReply } from '../../domain/paging/messages';
import { knexOf } from '../../db/knex';
import { DomainError } from '../errors';
import { verifyAction, type PageAction } from './action-tokens';
import { transitionIncident } from '../incident/incidents';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';

export interface PageResponseDeps {
  orm: MikroORM;
  temporal: Client;
  taskQueue: string;
  /** AUTO_CLOSE_HOURS, for an incident workflow an answer starts (a reopen after close). */
  autoCloseHours?: number;
  /** Signs email links and push actions. */
  linkSecret: string;
}

/** What a responder's answer did, in words for the reply SMS, the call or the page. */
export interface PageResponse {
  done: boolean;
  message: string;
}

interface PageRow {
  id: string;
  incident_id: string;
  organization_id: string;
  user_id: string | null;
  number: number;
}

const ALREADY_HANDLED: PageResponse = { done: false, message: 'Already handled.' };

const PAST: Record<PageAction, string> = { acknowledge: 'acknowledged', resolve: 'resolved' };

/**
 * Records a callback key once: false when it was seen before (a replayed request acts no more).
 * Inserted before acting: a crash in between loses the action, and the responder can answer again.
 */
async function firstTime(orm: MikroORM, key: string): Promise<boolean> {
  const rows = await knexOf(orm)('provider_callbacks').insert({ key, received_at: new Date() }).onConflict('key').ignore().returning('key');
  return rows.length > 0;
}

/**
 * Acts once per callback key. A failed act (Temporal or Postgres away: the caller answers 503)
 * frees the key again, so the responder, or the provider's retry, can try once more.
 */
async function once(orm: MikroORM, key: string, seen: PageResponse, run: () => Promise<PageResponse>): Promise<PageResponse> {
  if (!(await firstTime(orm, key))) return seen;
  try {
    return await run();
  } catch (err) {
    await knexOf(orm)('provider_callbacks').where({ key }).delete().catch(() => undefined);
    throw err;
  }
}

async function act(deps: PageResponseDeps, page: PageRow, action: LifecycleOperation, via: string): Promise<PageResponse> {
  const actor: Actor = { type: page.user_id ? 'user' : 'system', id: page.user_id, via };
  try {
    const snapshot = await transitionIncident(deps, { organizationId: page.organization_id, incidentId: page.incident_id, operation: action, actor });
    return { done: true, message: `Incident #${page.number} is ${snapshot.status.toLowerCase()}.` };
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'conflict') return { done: false, message: `Incident #${page.number}: ${err.message}.` };
    throw err;
  }
}

const pageQuery = (orm: MikroORM) =>
  knexOf(orm)('notifications as n')
    .join('incidents as i', 'i.id', 'n.incident_id')
    .select('n.id', 'n.incident_id', 'n.organization_id', 'n.user_id', 'i.number');

/** An SMS reply (`4A`, `4r`) from a number we paged: acts on the newest incident paged with that code. */
export async function respondBySms(deps: PageResponseDeps, sms: { messageSid: string; from: string; body: string }): Promise<PageResponse> {
  const reply = parseSmsReply(sms.body);
  if (!reply) return { done: false, message: 'Reply with the code and A to acknowledge or R to resolve, e.g. 4A.' };
  const page: PageRow | undefined = await pageQuery(deps.orm).where({ 'n.target': sms.from, 'n.reply_code': reply.code, 'n.channel': 'sms' }).orderBy('n.created_at', 'desc').first();
  if (!page) return { done: false, message: `No incident was paged to this number with code ${reply.code}.` };
  return once(deps.orm, `twilio-sms:${sms.messageSid}`, ALREADY_HANDLED, () => act(deps, page, reply.action, 'sms'));
}

/** A keypress on a paging call: 1 acknowledges, 2 pages the next escalation step now. */
export async function respondByVoice(deps: PageResponseDeps, call: { notificationId: string; callSid: string; digits: string }): Promise<PageResponse> {
  const page: PageRow | undefined = await pageQuery(deps.orm).where({ 'n.id': call.notificationId, 'n.channel': 'voice' }).first();
  if (!page) return { done: false, message: 'This call is not a page we know.' };
  if (call.digits !== '1' && call.digits !== '2') return { done: false, message: 'Press 1 to acknowledge or 2 to escalate.' };
  return once(deps.orm, `twilio-voice:${call.callSid}:${call.digits}`, ALREADY_HANDLED, async () => {
    if (call.digits === '1') return act(deps, page, 'acknowledge', 'voice');
    const handle = deps.temporal.workflow.getHandle(incidentWorkflowId(page.incident_id));
    await withinDeadline(deps.temporal, TEMPORAL_CALL_MS, () => handle.signal(escalateNowSignal, { actor: { type: 'user', id: page.user_id, via: 'voice' } }));
    return { done: true, message: `Escalating incident #${page.number} to the next step.` };
  });
}

/** A signed email link or push action: acts once, as the person it was sent to. */
export async function respondByToken(deps: PageResponseDeps, token: string, via: 'email' | 'push'): Promise<PageResponse> {
  const claim = verifyAction(deps.linkSecret, token, Math.floor(Date.now() / 1000));
  if (!claim) return { done: false, message: 'This link is not valid or has expired.' };
  const page: PageRow | undefined = await pageQuery(deps.orm).where({ 'n.id': claim.notificationId }).first();
  if (!page) return { done: false, message: 'This link is not valid or has expired.' };
  const key = `token:${createHash('sha256').update(token).digest('hex')}`;
  return once(deps.orm, key, { done: false, message: `This link was already used; incident #${page.number} was ${PAST[claim.action]} with it.` }, () => act(deps, page, claim.action, via));
}

/** A provider's delivery report (Twilio StatusCallback): the attempt's status follows it. */
export async function recordDeliveryStatus(orm: MikroORM, report: { providerMessageId: string; status: string; errorCode?: string }): Promise<void> {
  const status = ['delivered', 'read', 'completed'].includes(report.status) ? 'delivered' : ['failed', 'undelivered', 'busy', 'no-answer', 'canceled'].includes(report.status) ? 'failed' : null;
  if (!status) return;
  await knexOf(orm)('notifications')
    .where({ provider_message_id: report.providerMessageId })
    .whereIn('status', ['queued', 'sent'])
    .update({ status, error: status === 'failed' ? `provider reported ${report.status}${report.errorCode ? ` (${report.errorCode})` : ''}` : null, updated_at: new Date() });
}
