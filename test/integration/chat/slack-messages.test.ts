import { SLACK_ACTION_IDS } from '../../../src/integrations/slack/messages/blocks';
import { setServiceChat } from '../../../src/services/chat/service-chat';
import { deleteSlackInstallation } from '../../../src/integrations/slack/installations';
import { createService } from '../../../src/services/workspace/catalog';
import { createSource } from '../../../src/services/ingest/sources';
import { slackStack } from '../../support/slack-stack';
import { notificationsOf, trigger } from '../../support/paging';
import { sleep, waitFor } from '../../support/wait';

const slack = slackStack();
const { sealer, db, newChannel, install, slackWorkspace, act, postsOf, messageOf } = slack;

type Block = { type: string; text?: { text: string }; fields?: Array<{ text: string }>; elements?: Array<{ action_id: string; value: string }> };
const blocksOf = (m: { blocks?: unknown[] }) => (m.blocks ?? []) as Block[];
const buttonsOf = (m: { blocks?: unknown[] }) => blocksOf(m).flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []));
const fieldsOf = (m: { blocks?: unknown[] }) => blocksOf(m).flatMap((b) => (b.fields ?? []).map((f) => f.text));
const statusShown = (m: { blocks?: unknown[] }) => fieldsOf(m).find((f) => f.startsWith('*Status*'));

const deliveriesOf = (incidentId: string) => db()('feed_deliveries').where({ consumer: 'slack', incident_id: incidentId }).orderBy('lane_seq');

describe('Slack messages', () => {
  it('when an incident opens on a service with a Slack channel, then one Block Kit message is posted there with its title, severity, service, who is paged, the dashboard link and buttons naming the incident', async () => {
    const { ws, ingestUrl, channel } = await slackWorkspace();
    const incidentId = await trigger(ingestUrl, 'Checkout is down');
    const message = await messageOf(incidentId);
    expect(message.channel).toBe(channel);
    expect(message.text).toContain('Checkout is down');
    const all = JSON.stringify(message.blocks);
    expect(all).toContain('Checkout is down');
    expect(all).toContain(`${slack.stack.urls.app}/incidents/${incidentId}`);
    expect(fieldsOf(message)).toEqual(expect.arrayContaining(['*Status*\nTriggered', '*Severity*\nCRITICAL', '*Service*\nAPI']));
    expect(buttonsOf(message).map((b) => [b.action_id, b.value])).toEqual([
      [SLACK_ACTION_IDS.acknowledge, incidentId],
      [SLACK_ACTION_IDS.resolve, incidentId],
      [SLACK_ACTION_IDS.escalate, incidentId],
    ]);
    // Who is being paged shows once the step's page went out (an update of the same message).
    await waitFor(async () => fieldsOf(message).includes('*Paging now*\nDana Smith'), 20_000, 'the paged responder on the message');
    expect(postsOf(incidentId)).toHaveLength(1);
    expect(slack.fake.postsIn(channel)).toHaveLength(1);
    expect(slack.fake.repliesTo(message)).toEqual([]);
    expect(
      slack.fake
        .callsOf('chat.postMessage')
        .filter((c) => c.args.channel === channel)
        .every((c) => c.token === slack.fake.botToken),
    ).toBe(true);
    void ws;
  });

  it('when the incident is acknowledged and then resolved through the API, then the same message is updated each time and the thread says who did it', async () => {
    const { ws, ingestUrl } = await slackWorkspace();
    const incidentId = await trigger(ingestUrl, 'Queue backlog');
    const message = await messageOf(incidentId);

    expect((await act(ws, incidentId, 'acknowledge')).status).toBe(200);
    await waitFor(async () => statusShown(message) === '*Status*\nAcknowledged', 20_000, 'the message acknowledged');
    expect(buttonsOf(message).map((b) => b.action_id)).toEqual([SLACK_ACTION_IDS.resolve, SLACK_ACTION_IDS.escalate]);
    const afterAck = await waitFor(async () => slack.fake.repliesTo(message).length === 1 && slack.fake.repliesTo(message), 10_000, 'the reply');
    expect(afterAck[0].text).toBe(`Acknowledged via the API by ${ws.admin.email}`);

    expect((await act(ws, incidentId, 'resolve')).status).toBe(200);
    await waitFor(async () => statusShown(message) === '*Status*\nResolved', 20_000, 'the message resolved');
    expect(buttonsOf(message)).toEqual([]);
    const replies = await waitFor(async () => slack.fake.repliesTo(message).length === 2 && slack.fake.repliesTo(message), 10_000, 'the second reply');
    expect(replies.map((r) => r.text)).toEqual([`Acknowledged via the API by ${ws.admin.email}`, `Resolved via the API by ${ws.admin.email}`]);
    expect(postsOf(incidentId)).toHaveLength(1);
    const updates = slack.fake.callsOf('chat.update').filter((c) => c.args.channel === message.channel);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.every((c) => c.args.ts === message.ts)).toBe(true);
    // Each row is marked delivered just after its last call.
    const rows = await waitFor(
      async () => {
        const all = await deliveriesOf(incidentId);
        return all.every((r) => r.delivered_at !== null) && all;
      },
      10_000,
      'every delivery marked',
    );
    expect(rows.map((r) => r.type)).toEqual(expect.arrayContaining(['incident.triggered', 'incident.acknowledged', 'incident.resolved']));
    expect(rows.every((r) => r.parked_at === null && r.attempts === 1)).toBe(true);
  });

  it('when Slack is down while three incidents open and are acknowledged, then their pages still go out at once, and when Slack is back every message is posted once and updated in order', async () => {
    const { ws, ingestUrl, channel } = await slackWorkspace();
    slack.fake.down = 503;
    try {
      const opened = Date.now();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await trigger(ingestUrl, `Outage ${i}`));
      // The pages went out (the dev inbox) while every Slack call failed.
      for (const id of ids) {
        const pages = await waitFor(
          async () => {
            const rows = await notificationsOf(slack.stack.orm, id);
            return rows.length > 0 && rows.every((r) => r.status === 'sent' || r.status === 'delivered') && rows;
          },
          15_000,
          'the page',
        );
        expect(new Date(pages[0].updated_at).getTime() - opened).toBeLessThan(10_000);
      }
      expect(await db()('dev_deliveries').whereIn('to', [(await notificationsOf(slack.stack.orm, ids[0]))[0].target])).not.toHaveLength(0);
      await waitFor(
        async () => {
          const rows = await db()('feed_deliveries').where({ consumer: 'slack', target_id: channel, type: 'incident.triggered' });
          return rows.length === 3 && rows.every((r) => r.attempts >= 1);
        },
        15_000,
        'a failed attempt of each post',
      );
      for (const id of ids) expect((await act(ws, id, 'acknowledge')).status).toBe(200);
      await waitFor(
        async () => (await db()('feed_deliveries').where({ consumer: 'slack', target_id: channel, type: 'incident.acknowledged' })).length === 3,
        10_000,
        'the acks queued',
      );
      expect(slack.fake.postsIn(channel)).toEqual([]);
      const failed = await db()('feed_deliveries').where({ consumer: 'slack', target_id: channel, type: 'incident.triggered' });
      expect(failed.every((r) => r.attempts >= 1 && r.delivered_at === null && r.parked_at === null && r.next_attempt_at !== null)).toBe(true);
      expect(failed[0]).toMatchObject({ last_error: 'slack_webapi_http_error', last_status_code: 503 });
      // The acknowledgements wait behind their incident's post: never tried while it is not made.
      const acks = await db()('feed_deliveries').where({ consumer: 'slack', target_id: channel, type: 'incident.acknowledged' });
      expect(acks.every((r) => r.attempts === 0)).toBe(true);
    } finally {
      slack.fake.down = undefined;
    }
    // Slack is back; the retries are due now rather than after the schedule's wait.
    await db()('feed_deliveries').where({ consumer: 'slack', target_id: channel }).whereNull('delivered_at').update({ next_attempt_at: new Date() });
    const ids = [...new Set((await db()('feed_deliveries').where({ consumer: 'slack', target_id: channel })).map((r) => r.incident_id as string))];
    expect(ids).toHaveLength(3);
    for (const id of ids) {
      const message = await messageOf(id);
      await waitFor(async () => statusShown(message) === '*Status*\nAcknowledged' && slack.fake.repliesTo(message).length === 1, 20_000, 'the update');
      expect(message.versions.map((v) => statusShown(v))[0]).toBe('*Status*\nTriggered');
      expect(slack.fake.repliesTo(message).map((r) => r.text)).toEqual([`Acknowledged via the API by ${ws.admin.email}`]);
    }
    await sleep(1000);
    expect(slack.fake.postsIn(channel)).toHaveLength(3);
    for (const id of ids) expect(postsOf(id)).toHaveLength(1);
  });

  it('when Slack answers channel_not_found, then the delivery is parked at once, logged once without the token, and not tried again', async () => {
    const { ingestUrl } = await slackWorkspace({ channel: 'C0GONE0404' });
    const incidentId = await trigger(ingestUrl);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveriesOf(incidentId);
        return !!rows[0]?.parked_at && rows;
      },
      20_000,
      'the parked delivery',
    );
    expect(row).toMatchObject({ attempts: 1, last_error: 'channel_not_found', delivered_at: null, skipped_at: null });
    await sleep(6_000);
    expect(slack.fake.callsOf('chat.postMessage').filter((c) => c.args.channel === 'C0GONE0404')).toHaveLength(1);
    const parked = await deliveriesOf(incidentId);
    expect(parked.every((r) => r.parked_at !== null && r.delivered_at === null)).toBe(true);
    const logged = slack.stack.logs.records.filter((r) => r.slack_channel_id === 'C0GONE0404');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ error: 'channel_not_found', incident_id: incidentId });
    expect(slack.stack.logs.lines.some((l) => l.includes(slack.fake.botToken))).toBe(false);
  });

  it('when the workspace has no Slack installation or is on FREE, then nothing is posted; once installed or upgraded, its next incident is', async () => {
    const free = await slackWorkspace();
    // FREE (set after seeding: FREE has no API tokens to seed).
    await db()('organizations').where({ id: free.ws.organizationId }).update({ plan: 'FREE' });
    const notInstalled = await slackWorkspace({ installed: false });
    const freeIncident = await trigger(free.ingestUrl);
    const notInstalledIncident = await trigger(notInstalled.ingestUrl);
    // A later incident of a workspace that posts: the feed is taken in order, so the two above were seen first.
    const control = await slackWorkspace();
    await messageOf(await trigger(control.ingestUrl));
    expect(postsOf(freeIncident)).toEqual([]);
    expect(postsOf(notInstalledIncident)).toEqual([]);
    expect(slack.fake.postsIn(free.channel)).toEqual([]);
    expect(slack.fake.postsIn(notInstalled.channel)).toEqual([]);
    expect(await deliveriesOf(freeIncident)).toEqual([]);

    await db()('organizations').where({ id: free.ws.organizationId }).update({ plan: 'STARTER' });
    await install(notInstalled.ws.organizationId);
    expect((await messageOf(await trigger(free.ingestUrl))).channel).toBe(free.channel);
    expect((await messageOf(await trigger(notInstalled.ingestUrl))).channel).toBe(notInstalled.channel);
  });

  it('when Slack is disconnected after an event was queued, then its delivery is skipped, not sent', async () => {
    const { ws, ingestUrl, channel } = await slackWorkspace();
    slack.fake.down = 503;
    let incidentId: string;
    try {
      incidentId = await trigger(ingestUrl);
      await waitFor(async () => (await deliveriesOf(incidentId))[0]?.attempts >= 1, 15_000, 'a failed attempt');
      await deleteSlackInstallation(slack.stack.orm, ws.organizationId);
    } finally {
      slack.fake.down = undefined;
    }
    await db()('feed_deliveries').where({ consumer: 'slack', incident_id: incidentId }).update({ next_attempt_at: new Date() });
    const [row] = await waitFor(
      async () => {
        const rows = await deliveriesOf(incidentId);
        return !!rows[0]?.parked_at && rows;
      },
      15_000,
      'the skipped delivery',
    );
    expect(row).toMatchObject({ skipped_at: expect.anything(), delivered_at: null, last_error: 'skipped: Slack is not connected' });
    expect(slack.fake.postsIn(channel)).toEqual([]);
  });

  it('when a service names no channel, then its incidents post nothing; when one is set later, the next change posts a fresh message', async () => {
    const { ws, ingestUrl, channel } = await slackWorkspace();
    const policyId = (await db()('services').where({ id: ws.serviceId }).first()).escalation_policy_id;
    const quiet = await createService(slack.stack.orm, { organizationId: ws.organizationId, teamId: ws.teamId, name: 'Quiet', escalationPolicyId: policyId });
    const quietSource = await createSource(slack.stack.orm, {
      organizationId: ws.organizationId,
      serviceId: quiet.id,
      name: 'quiet',
      ingestBaseUrl: slack.stack.urls.ingest,
    });
    const quietIncident = await trigger(quietSource.ingest_url, 'Nobody watches this');
    // Its first page is delivered (a feed event) before the channel is set: on a busy machine it came
    // after, and that event, not the acknowledgement, posted the message.
    await waitFor(
      async () => (await db()('incident_events').where({ incident_id: quietIncident, type: 'page.delivered' }).first()) ?? undefined,
      20_000,
      'the first page delivered',
    );
    await messageOf(await trigger(ingestUrl));
    expect(postsOf(quietIncident)).toEqual([]);
    expect(await deliveriesOf(quietIncident)).toEqual([]);

    // The channel set after the incident opened: its acknowledgement posts the message, as it stands now.
    const later = newChannel();
    await setServiceChat(slack.stack.orm, sealer, { organizationId: ws.organizationId, serviceId: quiet.id }, { slackChannel: { id: later, name: 'quiet' } });
    expect((await act(ws, quietIncident, 'acknowledge')).status).toBe(200);
    const message = await messageOf(quietIncident);
    expect(message.channel).toBe(later);
    expect(statusShown(message)).toBe('*Status*\nAcknowledged');
    await waitFor(async () => slack.fake.repliesTo(message).length === 1, 10_000, 'the reply');
    expect(slack.fake.postsIn(channel)).toHaveLength(1);
  });
});
