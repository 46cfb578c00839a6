import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { setServiceChat } from '../../../src/services/chat/service-chat';
import { saveSlackInstallation } from '../../../src/services/chat/slack-installations';
import { createSealer } from '../../../src/services/sealing/seal';
import { addIncidentResponders, mergeIncidents, snoozeIncident } from '../../../src/services/incident';
import { SlackApiFake, type FakeSlackMessage } from '../../fakes/slack-api';
import { request } from '../../support/http';
import { pagingService, responder, trigger } from '../../support/paging';
import { startTestStack, TEST_SECRET, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace, type SeededWorkspace } from '../../support/workspace';

let fake: SlackApiFake;
let stack: TestStack;
beforeAll(async () => {
  fake = await new SlackApiFake().start();
  fake.tokens.add(fake.botToken);
  stack = await startTestStack({ env: fake.env() });
});
afterAll(async () => {
  await stack?.stop();
  await fake?.stop();
});

const sealer = createSealer(TEST_SECRET);
const db = () => knexOf(stack.orm);

/** A channel of its own for each test, so posts never mix. */
function newChannel(): string {
  const id = `C${randomUUID().replace(/-/g, '').slice(0, 9).toUpperCase()}`;
  fake.channels.push({ id, name: `inc-${id.toLowerCase()}` });
  return id;
}

const install = (organizationId: string) =>
  saveSlackInstallation(stack.orm, sealer, {
    organizationId,
    slackTeamId: fake.teamId,
    slackTeamName: fake.teamName,
    botUserId: fake.botUserId,
    botToken: fake.botToken,
    scopes: 'chat:write',
    installedBy: null,
  });

/** A workspace paging one responder by email (the dev inbox), Slack installed, its service posting in `channel`. */
async function slackWorkspace(opts: { installed?: boolean; channel?: string | null } = {}) {
  const ws = await seedWorkspace(stack.orm);
  const paged = await responder(stack.orm, ws.organizationId, 'email');
  await db()('users').where({ id: paged.id }).update({ name: 'Dana Smith' });
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: paged.id }] }] }, stack.urls.ingest);
  if (opts.installed !== false) await install(ws.organizationId);
  const channel = opts.channel === undefined ? newChannel() : opts.channel;
  if (channel)
    await setServiceChat(stack.orm, sealer, { organizationId: ws.organizationId, serviceId: ws.serviceId }, { slackChannel: { id: channel, name: 'alerts' } });
  return { ws, paged, ingestUrl, channel: channel ?? '' };
}

const act = (ws: SeededWorkspace, incidentId: string, action: 'acknowledge' | 'resolve') =>
  request('POST', `${stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${incidentId}/${action}`, { token: ws.tokens.readWrite });

/** The incident's top-level messages anywhere (its id is in the link and the buttons). */
const postsOf = (incidentId: string): FakeSlackMessage[] =>
  fake.messages.filter((m) => !m.thread_ts && JSON.stringify(m.versions[0].blocks).includes(incidentId));
const messageOf = (incidentId: string) => waitFor(async () => postsOf(incidentId)[0], 20_000, `the message of ${incidentId}`);

// A responder's actions (docs/responding.md) reach the incident's Slack thread through the feed.
describe('Slack threads hear a responder’s actions', () => {
  it('when a note is added, the incident snoozed, a person added and another incident merged in, then each is one thread reply under the same message', async () => {
    const { ws, ingestUrl, paged } = await slackWorkspace();
    const incidentId = await trigger(ingestUrl, 'Disk full');
    const other = await trigger(ingestUrl, 'Disk full too');
    const message = await messageOf(incidentId);
    const v1 = (p: string, body?: unknown) =>
      request('POST', `${stack.urls.app}/api/v1/organizations/${ws.organizationId}${p}`, { token: ws.tokens.readWrite, body });

    expect((await v1(`/incidents/${incidentId}/notes`, { text: 'Cleaning /var/log <now>' })).status).toBe(201);
    expect((await act(ws, incidentId, 'acknowledge')).status).toBe(200);
    // The dashboard's actions, through the same use cases its routes call.
    const deps = { orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue };
    await snoozeIncident(deps, { organizationId: ws.organizationId, incidentId, actor: { type: 'user', id: ws.admin.id, via: 'api' }, minutes: 15 });
    await addIncidentResponders(deps, {
      organizationId: ws.organizationId,
      incidentId,
      actor: { type: 'user', id: ws.admin.id, via: 'api' },
      targets: [{ type: 'user', id: paged.id }],
    });
    await mergeIncidents(deps, { organizationId: ws.organizationId, incidentId, incidentIds: [other], actor: { type: 'user', id: ws.admin.id, via: 'api' } });

    const otherNumber = (await db()('incidents').where({ id: other }).first()).number;
    const replies = await waitFor(async () => fake.repliesTo(message).length >= 5 && fake.repliesTo(message), 20_000, 'five replies');
    expect(replies.map((r) => r.text)).toEqual([
      `Note: Cleaning /var/log &lt;now&gt; by ${ws.admin.email}`,
      `Acknowledged via the API by ${ws.admin.email}`,
      `Snoozed for 15 min by ${ws.admin.email}`,
      `Paging ${paged.email} now by ${ws.admin.email}`,
      `Merged #${otherNumber} into this incident by ${ws.admin.email}`,
    ]);
    const otherMessage = await messageOf(other);
    const otherReplies = await waitFor(async () => fake.repliesTo(otherMessage).length >= 1 && fake.repliesTo(otherMessage), 20_000, 'the merged one’s reply');
    expect(otherReplies.at(-1)!.text).toContain('Resolved: merged into #');
  });
});
