/**
 * What Twilio's callbacks do: an SMS reply (`4A`) or a keypress acts on the incident once per
 * callback, and a delivery report moves the page's status. The act itself is the response
 * service's (src/services/response/), shared with email links and push actions.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { escalateNowSignal, incidentWorkflowId } from '../../../workflows/definitions';
import { ALREADY_HANDLED, act, once, pageQuery, type PageResponse, type PageResponseDeps, type PageRow } from '../../services/response';
import { knexOf } from '../../db/knex';
import { recordDeliveryReport } from '../../services/paging';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';
import { parseSmsReply } from './messages';

/** An SMS reply (`4A`, `4r`) from a number we paged: acts on the newest incident paged with that code. */
export async function respondBySms(deps: PageResponseDeps, sms: { messageSid: string; from: string; body: string }): Promise<PageResponse> {
  const reply = parseSmsReply(sms.body);
  if (!reply) return { done: false, message: 'Reply with the code and A to acknowledge or R to resolve, e.g. 4A.' };
  const page: PageRow | undefined = await pageQuery(deps.orm)
    .where({ 'n.target': sms.from, 'n.reply_code': reply.code, 'n.channel': 'sms' })
    .orderBy('n.created_at', 'desc')
    .first();
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

/** A Twilio delivery report (StatusCallback): the page's status follows it. */
export async function recordDeliveryStatus(orm: MikroORM, report: { providerMessageId: string; status: string; errorCode?: string }): Promise<void> {
  const status = ['delivered', 'read', 'completed'].includes(report.status)
    ? 'delivered'
    : ['failed', 'undelivered', 'busy', 'no-answer', 'canceled'].includes(report.status)
      ? 'failed'
      : null;
  if (!status) return;
  const error = status === 'failed' ? `provider reported ${report.status}${report.errorCode ? ` (${report.errorCode})` : ''}` : null;
  await recordDeliveryReport(knexOf(orm), { providerMessageId: report.providerMessageId, status, error });
}
