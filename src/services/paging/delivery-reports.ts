/**
 * A carrier's delivery report on a phone page (Twilio's status callback, Vonage's message status
 * and call events): the page's status follows it, the carrier attempt it names is settled (also a
 * late one, from a carrier the page has moved on from: it changes the page no more, and sends
 * nothing; a delivery is timed for klaxon_page_delivery_seconds), and, when a failover may be waiting for it, the incident's workflow is woken
 * (docs/reliability.md, "Carriers").
 */
import type { Client } from '@temporalio/client';
import type { MikroORM } from '@mikro-orm/postgresql';
import { incidentWorkflowId, pageDeliveryReportSignal } from '../../contracts/workflows';
import { knexOf } from '../../db/knex';
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';
import { dropEarlyReport, holdEarlyReport, settleCarrierAttempt, type SettledCarrierAttempt } from './carrier-attempts';
import { recordDeliveryReport } from './pages';
import { observePageDelivery } from '../status/latency-metrics';

export interface CarrierReportDeps {
  orm: MikroORM;
  temporal: Client;
  /** More than one carrier is configured: a page's workflow may be waiting for this report to fail over. */
  carrierFailover?: boolean;
}

/** Records a final report (delivered or failed); what it settled, for the caller's other bookkeeping (drills). */
export async function recordCarrierReport(
  deps: CarrierReportDeps,
  report: { providerMessageId: string; status: 'delivered' | 'failed'; error: string | null },
): Promise<{ pages: Array<{ id: string; incidentId: string }>; attempt: SettledCarrierAttempt | undefined }> {
  const k = knexOf(deps.orm);
  // The attempt first: a send that records the page as taken after this (markPageSent) reads the
  // settled attempt, and one that recorded it before is matched by the page's update below.
  let attempt = await settleCarrierAttempt(k, report);
  let pages = await recordDeliveryReport(k, report);
  // Neither an attempt nor a page holds the message yet: the report came first; the attempt takes it.
  if (!attempt && pages.length === 0) {
    await holdEarlyReport(k, report);
    // An attempt recorded between the two reads did not see the held report: it is settled now instead.
    attempt = await settleCarrierAttempt(k, report);
    if (attempt) {
      await dropEarlyReport(k, report.providerMessageId);
      pages = await recordDeliveryReport(k, report);
    }
  }
  // Published latency (docs/reliability.md): from the carrier taking the page to its report of delivery, per carrier.
  if (attempt?.status === 'delivered') observePageDelivery(attempt.channel, attempt.carrier, attempt.deliveredInMs / 1000);
  // Woken by the attempt, not the page's row: a report can come before the send recorded the page
  // as taken (the workflow keeps it while the page is sending). A report on a carrier the page has
  // moved on from wakes nothing. Best effort: a workflow that misses it looks at the end of its wait.
  if (deps.carrierFailover && attempt?.current) {
    await wake(deps.temporal, { id: attempt.notificationId, incidentId: attempt.incidentId }).catch(() => undefined);
  }
  return { pages, attempt };
}

async function wake(temporal: Client, page: { id: string; incidentId: string }): Promise<void> {
  const handle = temporal.workflow.getHandle(incidentWorkflowId(page.incidentId));
  await withinDeadline(temporal, TEMPORAL_CALL_MS, () => handle.signal(pageDeliveryReportSignal, { notificationId: page.id }));
}
