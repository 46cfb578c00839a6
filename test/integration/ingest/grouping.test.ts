import { readFileSync } from 'node:fs';
import path from 'node:path';
import { knexOf } from '../../../src/db/knex';
import { putGroupingRules } from '../../../src/services/grouping/rules';
import { createSource } from '../../../src/services/ingest/sources';
import type { TwilioFake } from '../../../src/integrations/twilio/testing/wire-fake';
import { request } from '../../support/http';
import { pagingService, responder, startPagingStack, statusOf, timelineOf } from '../../support/paging';
import type { TestStack } from '../../support/stack';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';
import { waitFor } from '../../support/wait';

/**
 * Noise control on the real system (docs/grouping.md): grouped alerts join their group's incident
 * through the workflow's alert signal (one incident, one page), the incident resolves when all its
 * alerts have, and a source past its storm guard's limit opens one storm incident that pages once.
 */
let stack: TestStack;
let twilio: TwilioFake;
let ws: SeededWorkspace;
let ingestUrl: string;

beforeAll(async () => {
  ({ stack, twilio } = await startPagingStack());
  ws = await seedWorkspace(stack.orm);
  const person = await responder(stack.orm, ws.organizationId, 'sms');
  ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] }, stack.urls.ingest);
  // This file's storm guard is set per test, on the source; the default is left off here.
  await db()('alert_sources').where({ service_id: ws.serviceId }).update({ storm_mode: 'off' });
});

afterAll(() => Promise.all([stack?.stop(), twilio?.close()]));

const FIRING = JSON.parse(readFileSync(path.resolve(__dirname, '../../fixtures/native/alertmanager/firing.json'), 'utf8'));
const amAlert = (fingerprint: string, host: string, status: 'firing' | 'resolved' = 'firing') => ({
  ...FIRING.alerts[0],
  status,
  fingerprint,
  labels: { ...FIRING.alerts[0].labels, instance: host },
  annotations: { summary: `disk full on ${host} (${fingerprint})` },
});
/** One Alertmanager webhook; returns the incident of each of its alerts. */
async function post(alerts: unknown[], url = ingestUrl): Promise<Array<string | null>> {
  const res = await request('POST', url, { body: { ...FIRING, alerts } });
  if (res.status !== 202)
    console.log(
      stack.logs.lines
        .filter((l) => l.includes('err'))
        .slice(-3)
        .join('\n'),
    );
  expect(res.status).toBe(202);
  return ((res.body.events ?? [res.body]) as Array<{ incident_id: string | null }>).map((e) => e.incident_id);
}

const db = () => knexOf(stack.orm);
const pagesOf = async (incidentId: string) => Number((await db()('notifications').where({ incident_id: incidentId }).count({ n: '*' }))[0].n);
const incident = (id: string) => db()('incidents').where({ id }).first('alert_count', 'group_rule', 'group_key', 'storm_source_id', 'title');
const attachedEntries = async (id: string) =>
  (await timelineOf(stack.orm, id)).filter((e: { message: string }) => e.message.startsWith('Alert attached')).length;

describe('grouping rules at ingestion', () => {
  it('when alerts match a rule, then each group key is one incident holding its alerts, applied by its workflow, paging once', async () => {
    await putGroupingRules(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      rules: [
        {
          name: 'disk by host',
          match: [{ field: 'title', op: 'contains', value: 'disk full' }],
          group_by: ['labels.instance'],
          window_seconds: 600,
          page_after: null,
        },
      ],
    });
    const first = await post([amAlert('g1', 'db-1'), amAlert('g2', 'db-1'), amAlert('g3', 'db-2')]);
    const second = await post([amAlert('g4', 'db-1'), amAlert('g5', 'db-2')]);
    const [db1, , db2] = first;
    expect(first).toEqual([db1, db1, db2]);
    expect(second).toEqual([db1, db2]);
    expect(db1).not.toBe(db2);
    expect(await incident(db1!)).toMatchObject({ alert_count: 3, group_rule: 'disk by host', group_key: 'labels.instance=db-1' });
    expect(await incident(db2!)).toMatchObject({ alert_count: 2, group_key: 'labels.instance=db-2' });
    await waitFor(async () => (await attachedEntries(db1!)) === 2 && (await attachedEntries(db2!)) === 1, 30_000, 'the workflows to apply the attached alerts');
    await waitFor(async () => (await pagesOf(db1!)) > 0 && (await pagesOf(db2!)) > 0, 30_000, 'one page per group');
    expect([await pagesOf(db1!), await pagesOf(db2!)]).toEqual([1, 1]);
    const created = (await timelineOf(stack.orm, db1!))[0] as { message: string };
    expect(created.message).toContain('grouping rule "disk by host", group labels.instance=db-1');

    // Every alert of db-2's group resolves: the incident resolves; db-1 (one still firing) stays open.
    await post([amAlert('g3', 'db-2', 'resolved'), amAlert('g5', 'db-2', 'resolved'), amAlert('g1', 'db-1', 'resolved')]);
    await waitFor(async () => (await statusOf(stack.orm, db2!)) === 'RESOLVED', 30_000, 'the group incident to resolve');
    expect(await statusOf(stack.orm, db1!)).toBe('TRIGGERED');
    // A new alert of the resolved group opens a new incident.
    const [again] = await post([amAlert('g6', 'db-2')]);
    expect(again).not.toBe(db2);
    await putGroupingRules(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, rules: [] });
  });
});

describe('grouping under concurrency', () => {
  it('when 60 alerts of 3 groups arrive in parallel requests, then each group is one incident holding exactly its alerts, each applied once', async () => {
    await putGroupingRules(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      rules: [
        { name: 'racing', match: [{ field: 'title', op: 'contains', value: 'race' }], group_by: ['labels.instance'], window_seconds: 600, page_after: null },
      ],
    });
    const hosts = ['r1', 'r2', 'r3'];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => post([{ ...amAlert(`race-${i}`, hosts[i % 3]), annotations: { summary: `race ${i}` } }])),
    );
    const byHost = new Map<string, Set<string>>();
    answers.forEach(([id], i) => byHost.set(hosts[i % 3], (byHost.get(hosts[i % 3]) ?? new Set()).add(id!)));
    expect([...byHost.values()].map((ids) => ids.size)).toEqual([1, 1, 1]);
    for (const [host, ids] of byHost) {
      const [id] = [...ids];
      expect(await incident(id)).toMatchObject({ alert_count: 20, group_key: `labels.instance=${host}` });
      expect(Number((await db()('alerts').where({ incident_id: id }).count({ n: '*' }))[0].n)).toBe(20);
      // Every attached alert reaches the workflow once: 19 entries, never more.
      await waitFor(async () => (await attachedEntries(id)) === 19, 30_000, `the workflow of ${host} to apply its alerts`);
    }
    for (const ids of byHost.values()) expect(await attachedEntries([...ids][0])).toBe(19);
    await putGroupingRules(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, rules: [] });
  });
});

describe('page_after', () => {
  it('when a rule pages only after 3 alerts within its window, then the incident is held (the timeline says why) and pages on the third alert', async () => {
    const held = {
      name: 'bursts only',
      match: [{ field: 'title', op: 'contains' as const, value: 'burst' }],
      group_by: [],
      window_seconds: 600,
      page_after: { count: 3, within_seconds: 300 },
    };
    await putGroupingRules(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, rules: [held] });
    const burst = (fp: string, status: 'firing' | 'resolved' = 'firing') => ({ ...amAlert(fp, 'x', status), annotations: { summary: `burst ${fp}` } });
    const [id] = await post([burst('p1')]);
    const heldEntry = async () =>
      (await timelineOf(stack.orm, id!)).filter((e: { message: string }) => e.message.startsWith('Not paged: grouping rule “bursts only”')).length;
    await waitFor(async () => (await heldEntry()) === 1, 30_000, 'the hold on the timeline');
    expect(await post([burst('p2')])).toEqual([id]);
    await waitFor(async () => (await heldEntry()) === 2, 30_000, 'the second alert to re-check the hold');
    expect(await pagesOf(id!)).toBe(0);
    expect(await post([burst('p3')])).toEqual([id]);
    await waitFor(async () => (await pagesOf(id!)) > 0, 30_000, 'the page once the third alert arrived');

    // Another group of the rule whose only alerts resolve before the count: resolved, never paged.
    await putGroupingRules(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, rules: [{ ...held, group_by: ['labels.instance'] }] });
    const [quiet] = await post([{ ...burst('q1'), labels: { ...FIRING.alerts[0].labels, instance: 'quiet' } }]);
    await waitFor(
      async () => (await timelineOf(stack.orm, quiet!)).some((e: { message: string }) => e.message.startsWith('Not paged: grouping rule')),
      30_000,
      'the hold',
    );
    await post([{ ...burst('q1', 'resolved'), labels: { ...FIRING.alerts[0].labels, instance: 'quiet' } }]);
    await waitFor(async () => (await statusOf(stack.orm, quiet!)) === 'RESOLVED', 30_000, 'the held incident to resolve');
    expect(await pagesOf(quiet!)).toBe(0);
    await putGroupingRules(stack.orm, { organizationId: ws.organizationId, serviceId: ws.serviceId, rules: [] });
  });
});

describe('storm guard', () => {
  it('when a source opens more incidents than its guard allows, then its next alerts join one storm incident that pages once and says why', async () => {
    // A source of its own: the guard counts the incidents each source opened.
    const source = await createSource(stack.orm, {
      organizationId: ws.organizationId,
      serviceId: ws.serviceId,
      name: 'stormy',
      ingestBaseUrl: stack.urls.ingest,
    });
    await db()('alert_sources')
      .where({ id: source.id })
      .update({ storm_mode: 'custom', storm: JSON.stringify({ max_new_incidents: 3, within_seconds: 60, quiet_seconds: 120 }) });
    const opened = await post([amAlert('s1', 'a'), amAlert('s2', 'b'), amAlert('s3', 'c'), amAlert('s4', 'd'), amAlert('s5', 'e')], source.ingest_url);
    const [later] = await post([amAlert('s6', 'f')], source.ingest_url);
    const distinct = [...new Set([...opened, later])];
    expect(distinct).toHaveLength(4);
    const storm = opened[3]!;
    expect(opened[4]).toBe(storm);
    expect(later).toBe(storm);
    const row = await incident(storm);
    expect(row).toMatchObject({ alert_count: 3, storm_source_id: expect.any(String) });
    expect(row.title).toMatch(/^Alert storm from stormy: /);
    const created = (await timelineOf(stack.orm, storm))[0] as { message: string };
    expect(created.message).toContain('nobody is paged for them separately');
    await waitFor(async () => (await attachedEntries(storm)) === 2, 30_000, 'the storm incident to list its alerts');
    await waitFor(async () => (await Promise.all(distinct.map((id) => pagesOf(id!)))).every((n) => n > 0), 30_000, 'the pages');
    expect(await Promise.all(distinct.map((id) => pagesOf(id!)))).toEqual([1, 1, 1, 1]);
  });
});
