import { cpuSnapshot } from '../harness/cpu';
import { accepted, statusesOf } from '../harness/load';
import { perS, round } from '../harness/numbers';
import { waitFor } from '../harness/wait';
import { type IngestBench, INGEST_CONCURRENCY, NEW_INCIDENTS_S, STORM_KEYS, STORM_S, closedLoad } from './bench';

/**
 * (a) Alert storm: first-time events spread over STORM_KEYS dedup keys, so all but the first of
 * each key attach to an open incident. Then waits until each attached event's workflow has
 * written its `alert_attached` entry. Returns the applied rate (events/s).
 */
export async function alertStorm(b: IngestBench): Promise<number> {
  const phase = 'alert storm';
  const src = await b.source('storm');
  const start = await b.drain(phase);
  b.say(`Alert storm: first-time events over ${STORM_KEYS} dedup keys at ${INGEST_CONCURRENCY} connections for ${STORM_S} s`);
  const { run, cpuAtStart: c0 } = await closedLoad(src, { kind: 'alert', prefix: b.prefix('storm'), dedupKeys: STORM_KEYS }, STORM_S);
  const c1 = cpuSnapshot();
  b.say('  waiting until every attached event has been applied by its workflow');
  const applied = await waitFor(
    async () => {
      const [stored, attached] = await Promise.all([b.probe.stored(src.sourceId, src.serviceId), b.probe.attached(src.serviceId)]);
      return { ...stored, ...attached, expected: stored.alerts - stored.incidents };
    },
    (v) => v.n >= v.expected,
    (v) => v.n,
    (v) => b.say(`  ${v.n} of ${v.expected} applied`),
  );
  const c2 = cpuSnapshot();
  const byTitle = await b.probe.attachedByTitle(src.sourceId);
  const v = applied.value;
  const applyMs = v.lastAt - run.first2xxAt;
  const appliedRate = perS(v.n, applyMs);
  const acceptedRate = perS(accepted(run), run.durationS * 1000);
  b.out.figures.push({
    key: `ingest_first_time_storm_c${INGEST_CONCURRENCY}_ms`,
    label: `ingest first-time event (storm), c=${INGEST_CONCURRENCY}`,
    run,
    target: { p99: 25 },
  });
  b.out.rates.push(
    {
      key: 'ingest_storm_accepted_per_s',
      label: 'storm: first-time events accepted',
      value: acceptedRate,
      unit: 'events/s',
      target: { min: 2000 },
      detail: `${accepted(run)} 2xx in ${run.durationS} s`,
    },
    {
      key: 'ingest_storm_applied_per_s',
      label: 'storm: events applied by workflows',
      value: appliedRate,
      unit: 'events/s',
      detail: `${v.n} entries, first 202 → last entry ${round(applyMs / 1000, 2)} s`,
    },
    {
      key: 'ingest_storm_backlog_s',
      label: 'storm: applying after the load stopped',
      value: (v.lastAt - run.last2xxAt) / 1000,
      unit: 's',
      detail: 'last 202 → last entry',
    },
  );
  b.phase(phase, {
    accepted: accepted(run),
    statuses: run.statuses,
    stored_alerts: v.alerts,
    incidents_opened: v.incidents,
    attached_expected: v.expected,
    attached_applied: v.n,
    attached_applied_matched_by_title: byTitle,
    applied_complete: applied.complete,
    first_202_to_last_entry_s: round(applyMs / 1000, 2),
    catch_up_after_load_s: round((v.lastAt - run.last2xxAt) / 1000, 2),
  });
  b.out.notes.push(
    `Alert storm (${start}): first-time events without Idempotency-Key from the load generator process, ${INGEST_CONCURRENCY} connections, closed loop, ${run.durationS} s, titles unique per event, dedup keys cycling over ${STORM_KEYS}; answers ${statusesOf(run)}. ` +
      `Postgres holds ${v.alerts} alerts for it (${v.alerts - accepted(run)} more than 2xx answers read: requests cut off when the load stopped), which opened ${v.incidents} incidents; the other ${v.expected} attach. ` +
      `Applied: ${v.n} of ${v.expected} \`alert_attached\` timeline entries (${byTitle} matched to their alert by title)${applied.complete ? '' : ' — the wait gave up after 30 s without progress'}; applied rate = entries ÷ (last entry − first 202), where an entry's time is the workflow time of the task that applied it; the last entry came ${round((v.lastAt - run.last2xxAt) / 1000, 2)} s after the last 202. ` +
      `The ${v.incidents} opening events are not counted: they are applied when their workflow starts and write no entry of their own.`,
  );
  b.cpu('storm: load', c0, c1, run.cpuMs);
  b.cpu('storm: catch-up after the load', c1, c2);
  return appliedRate;
}

/**
 * (b) New incidents: first-time events without dedup_key, each opening an incident whose
 * workflow the relay starts with signalWithStart. Returns the delivered rate (events/s).
 */
export async function newIncidents(b: IngestBench): Promise<number> {
  const phase = 'new incidents';
  const src = await b.source('new incidents');
  const start = await b.drain(phase);
  b.say(`New incidents: first-time events without dedup_key at ${INGEST_CONCURRENCY} connections for ${NEW_INCIDENTS_S} s`);
  const { run, cpuAtStart: c0 } = await closedLoad(src, { kind: 'alert', prefix: b.prefix('new') }, NEW_INCIDENTS_S);
  const c1 = cpuSnapshot();
  b.say('  waiting until every event has been delivered to its workflow');
  const delivered = await waitFor(
    () => b.probe.delivered(src.serviceId),
    (v) => v.delivered >= v.total,
    (v) => v.delivered,
    (v) => b.say(`  ${v.delivered} of ${v.total} delivered`),
  );
  b.say("  waiting until the worker has run every new workflow's first task");
  const worker = await b.workerCatchUp(phase);
  const ranAt = Date.now();
  const c2 = cpuSnapshot();
  const v = delivered.value;
  const deliverMs = v.lastAt - run.first2xxAt;
  const rate = perS(v.delivered, deliverMs);
  const ranMs = ranAt - run.first2xxAt;
  b.out.figures.push({
    key: `ingest_first_time_new_incident_c${INGEST_CONCURRENCY}_ms`,
    label: `ingest first-time event (new incident), c=${INGEST_CONCURRENCY}`,
    run,
    target: { p99: 25 },
  });
  b.out.rates.push(
    {
      key: 'ingest_new_incident_accepted_per_s',
      label: 'new incidents: events accepted',
      value: perS(accepted(run), run.durationS * 1000),
      unit: 'events/s',
      target: { min: 2000 },
      detail: `${accepted(run)} 2xx in ${run.durationS} s`,
    },
    {
      key: 'ingest_new_incident_delivered_per_s',
      label: 'new incidents: workflows started',
      value: rate,
      unit: 'events/s',
      detail: `${v.delivered} delivered, first 202 → last delivery ${round(deliverMs / 1000, 2)} s`,
    },
    {
      key: 'ingest_new_incident_backlog_s',
      label: 'new incidents: delivering after the load stopped',
      value: (v.lastAt - run.last2xxAt) / 1000,
      unit: 's',
      detail: 'last 202 → last delivered_at',
    },
    {
      key: 'ingest_new_incident_first_task_per_s',
      label: 'new incidents: workflows ran their first task',
      value: perS(v.delivered, ranMs),
      unit: 'events/s',
      detail: `first 202 → task queue empty ${round(ranMs / 1000, 2)} s (approx.)`,
    },
  );
  b.phase(phase, {
    accepted: accepted(run),
    statuses: run.statuses,
    outbox_messages: v.total,
    delivered: v.delivered,
    delivered_complete: delivered.complete,
    first_202_to_last_delivery_s: round(deliverMs / 1000, 2),
    catch_up_after_load_s: round((v.lastAt - run.last2xxAt) / 1000, 2),
    first_202_to_task_queue_empty_s: round(ranMs / 1000, 2),
    task_queue_drained: worker.complete,
  });
  b.out.notes.push(
    `New incidents (${start}): first-time events without dedup_key, ${INGEST_CONCURRENCY} connections, closed loop, ${run.durationS} s; answers ${statusesOf(run)}; each opens an incident and queues one outbox message. ` +
      `Delivered = outbox rows with delivered_at (the relay's signalWithStart returned, so the workflow exists): ${v.delivered} of ${v.total}${delivered.complete ? '' : ' — the wait gave up after 30 s without progress'}, the last ${round((v.lastAt - run.last2xxAt) / 1000, 2)} s after the last 202; rate = delivered ÷ (last delivered_at − first 202). The relay stamps delivered_at when it records a delivery, which may be a little after its call returned. ` +
      `Delivered is not run: each new workflow's first task waits on the task queue; the worker had taken them all ${round((ranAt - v.lastAt) / 1000, 2)} s after the last delivery${worker.complete ? '' : ' (or stopped progressing)'} — the server's approximate backlog count, polled every 100 ms, so "ran their first task" is approximate. Later phases start only once that queue is empty too.`,
  );
  b.cpu('new incidents: load', c0, c1, run.cpuMs);
  b.cpu('new incidents: catch-up after the load', c1, c2);
  return rate;
}
