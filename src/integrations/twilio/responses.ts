/**
 * What Twilio's callbacks do: an SMS reply (`4A`) or a keypress acts on the incident once per
 * callback, and a delivery report moves the page's status. The act itself is the response
 * service's (src/services/response/), shared with email links and push actions.
 */
import { escalateNowSignal, incidentWorkflowId } from '../../contracts/workflows';
import { ALREADY_HANDLED, act, once, pageQuery, respondToDrill, type PageResponse, type PageResponseDeps, type PageRow } from '../../services/response';
import { drillResultBySmsReply, recordDrillDeliveryFailure } from '../../services/drills';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { recordCarrierReport, type CarrierReportDeps } from '../../services/paging';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';
import { parseSmsReply } from './messages';

/**
 * An SMS reply (`4A`, `4r`) from a number we paged: acts on the newest incident paged with that
 * code. `carrier` names the callback keys: Vonage's inbound SMS answer here too (src/integrations/vonage/hooks.ts).
 */
export async function respondBySms(
  deps: PageResponseDeps,
  sms: { messageSid: string; from: string; body: string },
  carrier: 'twilio' | 'vonage' = 'twilio',
): Promise<PageResponse> {
  const reply = parseSmsReply(sms.body);
  if (!reply) return { done: false, message: 'Reply with the code and A to acknowledge or R to resolve, e.g. 4A.' };
  const page: (PageRow & { created_at: Date }) | undefined = await pageQuery(deps.orm)
    .select('n.created_at')
    .where({ 'n.target': sms.from, 'n.reply_code': reply.code, 'n.channel': 'sms' })
    .orderBy('n.created_at', 'desc')
    .first();
  // Drill SMS take their codes from the same per-number cursor: the newer of the two is answered.
  const drill = await drillResultBySmsReply(knexOf(deps.orm), sms.from, reply.code);
  if (drill && (!page || new Date(drill.created_at) > new Date(page.created_at))) {
    if (reply.action !== 'acknowledge') return { done: false, message: `That was a paging drill: reply ${reply.code}A to acknowledge it.` };
    return respondToDrill(deps, drill.id, `${carrier}-sms:${sms.messageSid}`);
  }
  if (!page) return { done: false, message: `No incident was paged to this number with code ${reply.code}.` };
  return once(deps.orm, `${carrier}-sms:${sms.messageSid}`, ALREADY_HANDLED, () => act(deps, page, reply.action, 'sms'));
}

/** A keypress on a drill call: 1 acknowledges the drill (docs/drills.md). */
export async function respondToDrillByVoice(deps: PageResponseDeps, call: { drillResultId: string; callSid: string; digits: string }): Promise<PageResponse> {
  if (call.digits !== '1') return { done: false, message: 'This is a drill. Press 1 to acknowledge.' };
  const result = isUuid(call.drillResultId)
    ? await knexOf(deps.orm)('drill_results').where({ id: call.drillResultId, channel: 'voice' }).first('id')
    : undefined;
  if (!result) return { done: false, message: 'This call is not a drill we know.' };
  return respondToDrill(deps, call.drillResultId, `twilio-voice:${call.callSid}:${call.digits}`);
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

/**
 * A Twilio delivery report (StatusCallback): the page's status follows it. A call is delivered once
 * answered (`in-progress`, the `answered` event the call asks for) or completed.
 */
export async function recordDeliveryStatus(deps: CarrierReportDeps, report: { providerMessageId: string; status: string; errorCode?: string }): Promise<void> {
  const { orm } = deps;
  const status = ['delivered', 'read', 'completed', 'in-progress', 'answered'].includes(report.status)
    ? 'delivered'
    : ['failed', 'undelivered', 'busy', 'no-answer', 'canceled'].includes(report.status)
      ? 'failed'
      : null;
  if (!status) return;
  const error = status === 'failed' ? `provider reported ${report.status}${report.errorCode ? ` (${report.errorCode})` : ''}` : null;
  await recordCarrierReport(deps, { providerMessageId: report.providerMessageId, status, error });
  // A drill result is delivered when Twilio accepts it; a later failure report overturns that.
  if (status === 'failed') await recordDrillDeliveryFailure(knexOf(orm), { providerMessageId: report.providerMessageId, error: error! });
}
