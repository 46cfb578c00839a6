import { JSON_HEADERS, measuredLoad, statusesOf } from './ingest-bench';
import { incidentNumberOf, valuesRun, type PagingBench } from './paging-bench';
import { fetchHistories, startedAt, stepTimes, taskSplit } from './paging-history';
import { pagesOffSms } from './paging-probe';
import { pagingService, smsResponder } from './paging-seed';
import { splitFigures } from './paging-split';

/** New incidents per second, and for how long: each pages one SMS at once. */
export const FIRST_PAGE_RATE = 100;
export const FIRST_PAGE_S = 8;

/**
 * (1) 202 → first provider request: a steady, paced FIRST_PAGE_RATE events/s, each opening a
 * new incident on a service whose policy's step 1 pages one responder by SMS at delay 0; per
 * event, from the load generator reading its 202 to the Twilio fake receiving its SMS.
 */
export async function firstPageSteady(p: PagingBench): Promise<string[]> {
  const { b, fake, probe } = p;
  const phase = 'paging: 202 → first SMS';
  const { orm, ingestUrl } = b.stack;
  const responder = await smsResponder(orm, b.ws);
  const svc = await pagingService(orm, b.ws, { name: 'first page', ingestBaseUrl: ingestUrl, steps: [responder], delaySeconds: 60 });
  const prefix = b.prefix('paging-first');
  const start = await b.drain(phase);
  const before = (await fake.count()).byTo[responder.phone] ?? 0;
  b.say(`New incidents paging by SMS at a steady ${FIRST_PAGE_RATE}/s for ${FIRST_PAGE_S} s`);
  const fakeAtStart = await fake.cpuMs();
  const { run, cpuAtStart } = await measuredLoad({
    url: svc.url,
    method: 'POST',
    headers: JSON_HEADERS,
    request: { kind: 'alert', prefix },
    shape: { kind: 'paced', rate: FIRST_PAGE_RATE, durationS: FIRST_PAGE_S, maxInFlight: 32 },
  });
  const from = { cpu: cpuAtStart, fakeMs: fakeAtStart };
  const arrived = await p.waitForSms(responder.phone, before + run.answered.length, 'the first SMS');
  p.cpu(`paging ${FIRST_PAGE_RATE}/s: load and first SMS`, from, await p.mark(), run.cpuMs);

  const incidents = await probe.incidents(svc.sourceId);
  const byNumber = new Map(incidents.map((i) => [i.number, i]));
  const smsAt = new Map<string, number>();
  for (const m of await fake.messages()) {
    const incident = m.to === responder.phone ? byNumber.get(incidentNumberOf(m.body)) : undefined;
    if (incident && !smsAt.has(incident.title)) smsAt.set(incident.title, m.at);
  }
  const pages = await probe.pages(svc.sourceId);
  const titleOf = new Map(incidents.map((i) => [i.id, i.title]));
  const rowAt = new Map(pages.filter((r) => r.step === 0).map((r) => [titleOf.get(r.incidentId)!, r.createdAt]));
  const deliveredAt = await b.probe.deliveredAtByTitle(svc.sourceId);
  // Inside the workflow: from its start to the first page's send activity done, task by task.
  const histories = [...(await fetchHistories(b.stack.temporal, incidents.map((i) => i.id))).values()];
  const sentAt = histories.map((h) => ({ h, from: startedAt(h), to: stepTimes(h).sent[0] })).filter((x) => !Number.isNaN(x.to));

  // Where the time goes. Clamped at 0: the 202 is timed when the load generator has read it, and
  // the relay stamps delivered_at after its batch's calls, so the next step may come first.
  const total: number[] = [];
  const toDelivered: number[] = [];
  const deliveredToRow: number[] = [];
  const rowToSms: number[] = [];
  for (const [title, answeredAt] of run.answered) {
    const at = smsAt.get(title);
    if (at === undefined) continue;
    total.push(Math.max(0, at - answeredAt));
    const delivered = deliveredAt.get(title) ?? NaN;
    const row = rowAt.get(title) ?? NaN;
    if (Number.isNaN(delivered) || Number.isNaN(row)) continue;
    toDelivered.push(Math.max(0, delivered - answeredAt));
    deliveredToRow.push(Math.max(0, row - delivered));
    rowToSms.push(Math.max(0, at - row));
  }
  const missing = run.answered.length - total.length;
  b.out.figures.push(
    { key: 'paging_ingest_new_incident_steady_ms', label: `paging: ingest new incident, steady ${FIRST_PAGE_RATE}/s`, run },
    { key: 'paging_202_to_first_sms_ms', label: `202 → first SMS at Twilio, ${FIRST_PAGE_RATE}/s`, run: valuesRun(total, run, { no_sms: missing }), target: { p50: 300, p99: 1000 } },
    { key: 'paging_202_to_delivered_ms', label: '  of which 202 → relay delivered', run: valuesRun(toDelivered, run) },
    { key: 'paging_delivered_to_page_row_ms', label: '  of which delivered → page row written', run: valuesRun(deliveredToRow, run) },
    { key: 'paging_page_row_to_sms_ms', label: '  of which page row → SMS at Twilio', run: valuesRun(rowToSms, run) },
    { key: 'paging_workflow_start_to_sent_ms', label: '  workflow start → send activity done', run: valuesRun(sentAt.map((x) => x.to - x.from), run) },
    ...splitFigures('paging_first_sms', sentAt.map((x) => taskSplit(x.h, x.from, x.to)), run),
  );
  const off = pagesOffSms(pages);
  b.phase(phase, { sent: Math.round(FIRST_PAGE_RATE * FIRST_PAGE_S), answered_2xx: run.answered.length, statuses: run.statuses, incidents: incidents.length, sms_matched: total.length, sms_wait_complete: arrived.complete, pages_not_sent_as_sms: off });
  b.out.notes.push(
    `202 → first SMS (${start}): ${Math.round(FIRST_PAGE_RATE * FIRST_PAGE_S)} Form A events paced one every ${1000 / FIRST_PAGE_RATE} ms (open loop), none with a dedup_key, so each opens an incident and its workflow; answers ${statusesOf(run)}. ` +
      'The service\'s policy has one step paging one responder, whose one rule is SMS at delay 0. Per event: the arrival time the Twilio fake (its own process, the real Twilio SDK calling it) stamps on the SMS, matched to the incident by the `#number` in its text, minus the wall-clock time the load generator read the 202; same machine, same clock. ' +
      `${missing ? `${missing} accepted events got no SMS within the wait.` : 'Every accepted event got its SMS.'}${Object.keys(off).length ? ` Pages not sent as SMS: ${JSON.stringify(off)}.` : ''} ` +
      'Split: 202 → the outbox row\'s delivered_at (the relay\'s queue and signalWithStart) → the notifications row\'s created_at (workflow start, policy and recipients lookups, quota and reply-code transaction) → arrival (rendering, the Twilio SDK\'s HTTP call); each clamped at 0. ' +
      'Inside the workflow, from its history: workflow start → the first page\'s send activity completed (server clock), and under it each kind of task scheduled in that stretch, summed per incident: time queued for the worker (scheduled → started) and running (started → completed).',
  );
  return incidents.map((i) => i.id);
}
