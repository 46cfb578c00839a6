/**
 * What Vonage's callbacks do: a message status or a call event moves the page's delivery status
 * (as Twilio's status callback does, src/integrations/twilio/responses.ts), and key 1 on a call
 * acknowledges its incident once, as the person paged. The act itself is the response service's
 * (src/services/response/), shared with email links, push actions and Twilio's keypress.
 */
import { createHash } from 'node:crypto';
import { knexOf } from '../../db/knex';
import { recordDrillDeliveryFailure } from '../../services/drills';
import { recordCarrierReport, type CarrierReportDeps } from '../../services/paging';
import {
  act,
  once,
  pageQuery,
  respondToDrillToken,
  verifyAction,
  verifyDrillAck,
  type PageResponse,
  type PageResponseDeps,
  type PageRow,
} from '../../services/response';

/** Message statuses (Messages API) and call statuses (Voice API) that end a page's delivery. */
const DELIVERED = new Set(['delivered', 'read', 'answered', 'completed']);
const FAILED = new Set(['rejected', 'undeliverable', 'failed', 'busy', 'unanswered', 'timeout', 'cancelled']);

/** A status Vonage reported for a message or a call, with its error when it gave one. */
export interface VonageReport {
  /** The message's `message_uuid` or the call's `uuid`: the page's provider message id. */
  providerMessageId: string;
  status: string;
  /** Vonage's error (`error.title`, a code, and `error.detail`), for a failed message. */
  error?: string;
}

/** The page's status follows the report; a failure also fails a drill result the page was. Other statuses (submitted, ringing) change nothing. */
export async function recordVonageReport(deps: CarrierReportDeps, report: VonageReport): Promise<void> {
  const { orm } = deps;
  const status = DELIVERED.has(report.status) ? 'delivered' : FAILED.has(report.status) ? 'failed' : null;
  if (!status) return;
  const error = status === 'failed' ? `provider reported ${report.status}${report.error ? ` (${report.error})` : ''}`.slice(0, 500) : null;
  await recordCarrierReport(deps, { providerMessageId: report.providerMessageId, status, error });
  // A drill result is delivered when Vonage accepts it; a later failure overturns that.
  if (status === 'failed') await recordDrillDeliveryFailure(knexOf(orm), { providerMessageId: report.providerMessageId, error: error! });
}

/** True when `token` is one a Vonage call may carry: a page's acknowledge token or a drill's (both signed, unexpired). */
export function isCallToken(linkSecret: string, token: string): boolean {
  const now = Math.floor(Date.now() / 1000);
  return verifyDrillAck(linkSecret, token, now) !== null || verifyAction(linkSecret, token, now)?.action === 'acknowledge';
}

/**
 * Key 1 on a call: the token its NCCO carried acknowledges the drill result, or the incident of
 * the voice page it names, as the person paged (`via: voice`), once per token: Vonage retrying
 * the callback, or the key pressed again, acts no more.
 */
export async function acknowledgeByCall(deps: PageResponseDeps, token: string): Promise<PageResponse> {
  const drill = respondToDrillToken(deps, token);
  if (drill) return drill;
  const claim = verifyAction(deps.linkSecret, token, Math.floor(Date.now() / 1000));
  const page: PageRow | undefined =
    claim?.action === 'acknowledge' ? await pageQuery(deps.orm).where({ 'n.id': claim.notificationId, 'n.channel': 'voice' }).first() : undefined;
  if (!page) return { done: false, message: 'This call is not a page we know, or it has expired.' };
  const key = `vonage-voice:${createHash('sha256').update(token).digest('hex')}`;
  return once(deps.orm, key, { done: false, message: `Incident #${page.number} was already acknowledged from this call.` }, () =>
    act(deps, page, 'acknowledge', 'voice'),
  );
}
