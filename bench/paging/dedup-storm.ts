import { inCores } from '../harness/component-cpu';
import { loadInChild, statusesOf, valuesRun, type LoadRun } from '../harness/load';
import { JSON_HEADERS, pacedLoad } from '../harness/measured-load';
import { perS, round } from '../harness/numbers';
import type { PagingBench, PagingMark } from './bench';
import { fetchHistories } from './history';
import { firstSmsByTitle, perIncidentCpu } from './first-page';
import { pagesOffSms } from './probe';
import { pagingService, smsResponder } from './seed';

/** New paging incidents per second while the storm runs, and for how long. */
export const STORM_PAGING_RATE = 20;
export const STORM_PAGING_S = 15;
/** Dedup events per second, over this many open incidents of their own service. */
export const STORM_RATE = 1000;
export const STORM_KEYS = 50;
/** The storm runs this long before the paging load starts, and this long after it ends. */
const STORM_LEAD_S = 3;
const STORM_TAIL_S = 3;

/**
 * (2) First SMS during a dedup storm: STORM_KEYS incidents are opened on a service of their own
 * (no policy: they page nobody), then a paced STORM_RATE/s of events with their dedup keys
 * (each attaches to one of them: no new incident, no page) runs from one load generator while
 * another sends STORM_PAGING_RATE/s of first-time events to a paging service, as the 202 → first
 * SMS phases do. Returns every incident the phase opened, to be closed.
 */
export async function firstPageDuringStorm(p: PagingBench): Promise<string[]> {
  const { b, probe } = p;
  const phase = `paging: 202 → first SMS, ${STORM_PAGING_RATE}/s in a ${STORM_RATE}/s dedup storm`;
  const { orm, ingestUrl } = b.stack;
  const storm = await b.source('dedup storm');
  const stormPrefix = b.prefix('dedup-storm');
  b.say(`Dedup storm: opening ${STORM_KEYS} incidents on a service that pages nobody`);
  const opened = await pacedLoad(
    storm.url,
    { kind: 'alert', prefix: stormPrefix, dedupKeys: STORM_KEYS },
    { rate: 50, durationS: STORM_KEYS / 50, maxInFlight: 8 },
  );
  const responder = await smsResponder(orm, b.ws);
  const svc = await pagingService(orm, b.ws, { name: `first page in storm`, ingestBaseUrl: ingestUrl, steps: [responder], delays: [60] });
  const start = await b.drain(phase);
  const stormIncidentsBefore = (await probe.incidentIds(storm.sourceId)).length;

  const stormS = STORM_LEAD_S + STORM_PAGING_S + STORM_TAIL_S;
  b.say(
    `Dedup storm at ${STORM_RATE}/s for ${stormS} s over ${STORM_KEYS} open incidents; after ${STORM_LEAD_S} s, new incidents paging by SMS at ${STORM_PAGING_RATE}/s for ${STORM_PAGING_S} s`,
  );
  // The same titles as the opening events' keys: `<prefix>-k<i % keys>` (load-child.ts).
  const stormRun: Promise<LoadRun> = loadInChild({
    url: storm.url,
    method: 'POST',
    headers: JSON_HEADERS,
    request: { kind: 'alert', prefix: stormPrefix, dedupKeys: STORM_KEYS },
    shape: { kind: 'paced', rate: STORM_RATE, durationS: stormS, maxInFlight: 256 },
  });
  await new Promise((r) => setTimeout(r, STORM_LEAD_S * 1000));
  const { run, start: atStart } = await p.openIncidents(svc.url, b.prefix('paging-in-storm'), {
    rate: STORM_PAGING_RATE,
    durationS: STORM_PAGING_S,
    maxInFlight: 32,
  });
  const arrived = await p.waitForSms(responder.phone, run.answered.length, 'the first SMS');
  const atEnd: PagingMark = await p.mark();
  const stormDone = await stormRun;
  // The paging load generator's CPU is its own count; the storm's, reported for its whole run, is left in "rest".
  p.cpu(`paging ${STORM_PAGING_RATE}/s in a ${STORM_RATE}/s dedup storm`, atStart, atEnd, run.cpuMs);

  const { incidents, smsAt } = await firstSmsByTitle(p, svc.sourceId, responder.phone);
  const deliveredAt = await b.probe.deliveredAtByTitle(svc.sourceId);
  // As the 202 → first SMS phases split it: the relay's part, then the workflow's and the provider's; clamped at 0.
  const total: number[] = [];
  const toDelivered: number[] = [];
  const deliveredToSms: number[] = [];
  for (const [title, answeredAt] of run.answered) {
    const at = smsAt.get(title);
    if (at === undefined) continue;
    total.push(Math.max(0, at - answeredAt));
    const delivered = deliveredAt.get(title) ?? NaN;
    if (Number.isNaN(delivered)) continue;
    toDelivered.push(Math.max(0, delivered - answeredAt));
    deliveredToSms.push(Math.max(0, at - delivered));
  }
  const missing = run.answered.length - total.length;
  const stormIncidents = await probe.incidentIds(storm.sourceId);
  const stormPages = await probe.pages(storm.sourceId);
  const histories = [
    ...(
      await fetchHistories(
        b.stack.temporal,
        incidents.map((i) => i.id),
      )
    ).values(),
  ];
  perIncidentCpu(p, { key: 'paging_in_dedup_storm', label: `paging ${STORM_PAGING_RATE}/s + storm` }, atStart, atEnd, smsAt.size, histories);
  const c = b.stack.components.diff(atStart.components, atEnd.components);
  (b.out.componentCores ??= []).push({ key: 'paging_in_dedup_storm', label: `paging ${STORM_PAGING_RATE}/s + ${STORM_RATE}/s storm`, cores: inCores(c) });

  const key = (name: string) => `paging_storm_${name}`;
  b.out.figures.push(
    { key: key('ingest_new_incident_ms'), label: `paging: ingest new incident, ${STORM_PAGING_RATE}/s in storm`, run },
    {
      key: key('202_to_first_sms_ms'),
      label: `202 → first SMS at Twilio, ${STORM_PAGING_RATE}/s in a ${STORM_RATE}/s dedup storm`,
      run: valuesRun(total, run, { no_sms: missing }),
      target: { p99: 1000 },
    },
    { key: key('202_to_delivered_ms'), label: '  of which 202 → relay delivered', run: valuesRun(toDelivered, run) },
    { key: key('delivered_to_sms_ms'), label: '  of which delivered → SMS at Twilio', run: valuesRun(deliveredToSms, run) },
    { key: key('dedup_event_ms'), label: `  dedup storm event accepted, ${STORM_RATE}/s offered`, run: stormDone },
  );
  const stormAccepted = stormDone.latencies.length;
  const lastSms = Math.max(...smsAt.values());
  b.out.rates.push(
    {
      key: key('dedup_accepted_per_s'),
      label: `dedup storm: events accepted, ${STORM_RATE}/s offered`,
      value: perS(stormAccepted, stormDone.durationS * 1000),
      unit: 'events/s',
      target: { min: STORM_RATE * 0.95 },
      detail: `${stormAccepted} 2xx in ${round(stormDone.durationS, 1)} s; answers ${statusesOf(stormDone)}`,
    },
    {
      key: key('first_sms_per_s'),
      label: `first SMS sent in storm, ${STORM_PAGING_RATE}/s offered`,
      value: perS(total.length, lastSms - run.first2xxAt),
      unit: 'incidents/s',
      detail: `${total.length} SMS, first 202 → last SMS ${((lastSms - run.first2xxAt) / 1000).toFixed(1)} s`,
    },
  );
  const newStormIncidents = stormIncidents.length - stormIncidentsBefore;
  b.phase(phase, {
    storm_offered_per_s: STORM_RATE,
    storm_s: stormS,
    storm_statuses: stormDone.statuses,
    storm_accepted: stormAccepted,
    storm_transport_errors: stormDone.transportErrors,
    storm_load_cpu_ms: round(stormDone.cpuMs),
    storm_keys_opened: { statuses: opened.run.statuses, incidents: stormIncidentsBefore },
    storm_new_incidents: newStormIncidents,
    storm_pages: stormPages.length,
    paging_sent: Math.round(STORM_PAGING_RATE * STORM_PAGING_S),
    paging_statuses: run.statuses,
    incidents: incidents.length,
    sms_matched: total.length,
    sms_wait_complete: arrived.complete,
    pages_not_sent_as_sms: pagesOffSms(await probe.pages(svc.sourceId)),
  });
  b.out.notes.push(
    `Dedup storm (${start}): ${STORM_KEYS} incidents opened on a service with no policy (${stormIncidentsBefore} open), then ${STORM_RATE} events/s paced over their ${STORM_KEYS} dedup keys for ${stormS} s from one load generator ` +
      `(answers ${statusesOf(stormDone)}; ${stormDone.transportErrors} without an answer; it opened ${newStormIncidents} new incident${newStormIncidents === 1 ? '' : 's'} and sent ${stormPages.length} pages), ` +
      `and from ${STORM_LEAD_S} s in, ${STORM_PAGING_RATE}/s first-time events for ${STORM_PAGING_S} s from a second one to a paging service, timed to the first SMS as the 202 → first SMS phases are ` +
      `(answers ${statusesOf(run)}; ${missing ? `${missing} accepted events got no SMS within the wait` : 'every accepted event got its SMS'}). ` +
      "Its CPU-per-incident column holds the storm's work too; the storm's load generator's CPU is in the CPU table's rest of machine.",
  );
  return [...incidents.map((i) => i.id), ...stormIncidents];
}
