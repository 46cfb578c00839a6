import { knexOf } from '../../../src/db/knex';
import { retentionCutoffs } from '../../../src/domain/retention';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { purgeExpired } from '../../../src/services/retention/purge';
import { flushLatencyMetrics, LatencyRecorder } from '../../../src/services/status/latency-metrics';
import { dashboard, memberSession } from '../../support/dashboard';
import { notificationsOf, pagingService, responder, startPagingStack, trigger } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let twilio: TwilioFake;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const db = () => knexOf(stack.orm);

/** GET /metrics as text, and one sample's value (0 when absent): `name{labels} value`. */
async function scrape(): Promise<(sample: string) => number> {
  const res = await fetch(`${stack.urls.app}/metrics`);
  expect(res.status).toBe(200);
  const lines = (await res.text()).split('\n');
  return (sample) => {
    const line = lines.find((l) => l.startsWith(`${sample} `));
    return line === undefined ? 0 : Number(line.slice(sample.length + 1));
  };
}

const FIRST_PAGE = 'klaxon_alert_to_first_page_seconds';
const LATENESS = 'klaxon_escalation_lateness_seconds';
const DELIVERY = 'klaxon_page_delivery_seconds';

describe('published latencies', () => {
  it('when one step pages by SMS and email at once, then /metrics counts one alert-to-first-page, the email’s delivery at once and the SMS’s at its delivery report', async () => {
    const before = await scrape();
    const ws = await seedWorkspace(stack.orm);
    const bySms = await responder(stack.orm, ws.organizationId, 'sms');
    const byEmail = await responder(stack.orm, ws.organizationId, 'email');
    const ingestUrl = await pagingService(
      stack.orm,
      ws,
      {
        steps: [
          {
            delay_seconds: 600,
            targets: [
              { type: 'user', id: bySms.id },
              { type: 'user', id: byEmail.id },
            ],
          },
        ],
      },
      stack.urls.ingest,
    );
    const incidentId = await trigger(ingestUrl);
    const pages = await waitFor(
      async () => {
        const rows = await notificationsOf(stack.orm, incidentId);
        return rows.length === 2 && rows.every((p) => p.status === 'sent') && rows;
      },
      20_000,
      'both pages sent',
    );
    expect(pages.every((p) => p.sent_at !== null)).toBe(true);

    const sent = await scrape();
    expect(sent(`${FIRST_PAGE}_count`) - before(`${FIRST_PAGE}_count`)).toBe(1);
    const seconds = sent(`${FIRST_PAGE}_sum`) - before(`${FIRST_PAGE}_sum`);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(20);
    // Cumulative buckets: the +Inf one holds every observation.
    expect(sent(`${FIRST_PAGE}_bucket{le="+Inf"}`)).toBe(sent(`${FIRST_PAGE}_count`));
    const firstPages = await db()('incident_first_pages').where({ incident_id: incidentId }).pluck('notification_id');
    expect(firstPages).toHaveLength(1);
    expect(pages.map((p) => p.id)).toContain(firstPages[0]);
    const email = `${DELIVERY}_count{channel="email",carrier="dev_inbox"}`;
    const sms = `${DELIVERY}_count{channel="sms",carrier="twilio"}`;
    expect(sent(email) - before(email)).toBe(1);
    expect(sent(sms) - before(sms)).toBe(0); // sms waits for the carrier's report

    const smsPage = pages.find((p) => p.channel === 'sms')!;
    const report = await twilio.callBackTo(`${stack.urls.app}/hooks/twilio/status`, { MessageSid: smsPage.provider_message_id, MessageStatus: 'delivered' });
    expect(report.status).toBe(204);
    const delivered = await scrape();
    expect(delivered(sms) - before(sms)).toBe(1);
    expect(delivered(`${FIRST_PAGE}_count`)).toBe(sent(`${FIRST_PAGE}_count`));
  });

  it('when step 2 pages after step 1, then an escalation lateness is observed for each step’s page', async () => {
    const ws = await seedWorkspace(stack.orm);
    const first = await responder(stack.orm, ws.organizationId, 'email');
    const second = await responder(stack.orm, ws.organizationId, 'email');
    const ingestUrl = await pagingService(
      stack.orm,
      ws,
      {
        steps: [
          { delay_seconds: 3, targets: [{ type: 'user', id: first.id }] },
          { delay_seconds: 600, targets: [{ type: 'user', id: second.id }] },
        ],
      },
      stack.urls.ingest,
    );
    const before = await scrape();
    const incidentId = await trigger(ingestUrl);
    const sentTo = async (address: string) => (await notificationsOf(stack.orm, incidentId)).some((p) => p.target === address && p.status === 'sent');
    await waitFor(() => sentTo(first.address), 20_000, 'step 1’s page');
    const afterStep1 = await scrape();
    expect(afterStep1(`${LATENESS}_count`) - before(`${LATENESS}_count`)).toBe(1);
    await waitFor(() => sentTo(second.address), 20_000, 'step 2’s page');
    const afterStep2 = await scrape();
    expect(afterStep2(`${LATENESS}_count`) - afterStep1(`${LATENESS}_count`)).toBe(1);
    // On time, give or take a workflow task and an activity dispatch: well under step 2's 3 s wait.
    expect(afterStep2(`${LATENESS}_sum`) - afterStep1(`${LATENESS}_sum`)).toBeLessThan(3);
    // A page counts towards alert-to-first-page once per incident: step 2's page is not the first.
    expect(afterStep2(`${FIRST_PAGE}_count`) - before(`${FIRST_PAGE}_count`)).toBe(1);
  });

  it('when a member asks for /api/status after pages went out, then latency has the last hour’s and day’s p50 and p99 in seconds', async () => {
    const ws = await seedWorkspace(stack.orm);
    const person = await responder(stack.orm, ws.organizationId, 'email');
    const incidentId = await trigger(
      await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest),
    );
    await waitFor(async () => (await notificationsOf(stack.orm, incidentId)).some((p) => p.status === 'sent'), 20_000, 'the page');
    const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
    const res = await dashboard(stack.urls.app, 'GET', '/status', { session });
    expect(res.status).toBe(200);
    const { latency } = res.body.data;
    for (const window of ['hour', 'day']) {
      expect(latency[window]).toEqual({ p50: expect.any(Number), p99: expect.any(Number) });
      expect(latency[window].p50).toBeGreaterThan(0);
      expect(latency[window].p50).toBeLessThanOrEqual(latency[window].p99);
      expect(latency[window].p99).toBeLessThan(30);
    }
  });

  it('when two processes flush the same minute, then the minutes and the running totals hold the sum, and the purge takes old minutes but never the totals', async () => {
    const totalOf = async () =>
      Number((await db()('latency_totals').where({ metric: 'page_delivery', channel: 'push_web', carrier: 'web-push' }).sum({ n: 'count' }))[0].n ?? 0);
    const before = await totalOf();
    const old = Date.now() - 26 * 3_600_000;
    const a = new LatencyRecorder();
    const b = new LatencyRecorder();
    a.observe('page_delivery', 0.3, { channel: 'push_web', carrier: 'web-push' }, old);
    b.observe('page_delivery', 0.3, { channel: 'push_web', carrier: 'web-push' }, old);
    b.observe('page_delivery', 45, { channel: 'push_web', carrier: 'web-push' }, old);
    expect(await flushLatencyMetrics(stack.orm, a)).toBe(1);
    expect(await flushLatencyMetrics(stack.orm, b)).toBe(2);
    const minute = new Date(Math.floor(old / 60_000) * 60_000);
    const rows = await db()('latency_metrics').where({ metric: 'page_delivery', channel: 'push_web', minute }).orderBy('le_ms').select('le_ms', 'count');
    expect(rows).toEqual([
      { le_ms: 500, count: 2 },
      { le_ms: 60_000, count: 1 },
    ]);
    expect((await totalOf()) - before).toBe(3);

    const { deleted } = await purgeExpired(db(), retentionCutoffs(new Date()));
    expect(deleted.latency_metrics).toBeGreaterThanOrEqual(2);
    expect(await db()('latency_metrics').where({ metric: 'page_delivery', channel: 'push_web', minute })).toEqual([]);
    expect((await totalOf()) - before).toBe(3);
  });
});
