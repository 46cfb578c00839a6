import { addIncidentResponders, mergeIncidents, snoozeIncident } from '../../../src/services/incident';
import { request } from '../../support/http';
import { slackStack } from '../../support/slack-stack';
import { trigger } from '../../support/paging';
import { waitFor } from '../../support/wait';

const slack = slackStack();
const { db, slackWorkspace, act, messageOf } = slack;

// A responder's actions (docs/responding.md) reach the incident's Slack thread through the feed.
describe('Slack threads hear a responder’s actions', () => {
  it('when a note is added, the incident snoozed, a person added and another incident merged in, then each is one thread reply under the same message', async () => {
    const { ws, ingestUrl, paged } = await slackWorkspace();
    const incidentId = await trigger(ingestUrl, 'Disk full');
    const other = await trigger(ingestUrl, 'Disk full too');
    const message = await messageOf(incidentId);
    const v1 = (p: string, body?: unknown) =>
      request('POST', `${slack.stack.urls.app}/api/v1/organizations/${ws.organizationId}${p}`, { token: ws.tokens.readWrite, body });

    expect((await v1(`/incidents/${incidentId}/notes`, { text: 'Cleaning /var/log <now>' })).status).toBe(201);
    expect((await act(ws, incidentId, 'acknowledge')).status).toBe(200);
    // The dashboard's actions, through the same use cases its routes call.
    const deps = { orm: slack.stack.orm, temporal: slack.stack.temporal, taskQueue: slack.stack.taskQueue };
    await snoozeIncident(deps, { organizationId: ws.organizationId, incidentId, actor: { type: 'user', id: ws.admin.id, via: 'api' }, minutes: 15 });
    await addIncidentResponders(deps, {
      organizationId: ws.organizationId,
      incidentId,
      actor: { type: 'user', id: ws.admin.id, via: 'api' },
      targets: [{ type: 'user', id: paged.id }],
    });
    await mergeIncidents(deps, { organizationId: ws.organizationId, incidentId, incidentIds: [other], actor: { type: 'user', id: ws.admin.id, via: 'api' } });

    const otherNumber = (await db()('incidents').where({ id: other }).first()).number;
    const replies = await waitFor(async () => slack.fake.repliesTo(message).length >= 5 && slack.fake.repliesTo(message), 20_000, 'five replies');
    expect(replies.map((r) => r.text)).toEqual([
      `Note: Cleaning /var/log &lt;now&gt; by ${ws.admin.email}`,
      `Acknowledged via the API by ${ws.admin.email}`,
      `Snoozed for 15 min by ${ws.admin.email}`,
      `Paging ${paged.email} now by ${ws.admin.email}`,
      `Merged #${otherNumber} into this incident by ${ws.admin.email}`,
    ]);
    const otherMessage = await messageOf(other);
    const otherReplies = await waitFor(
      async () => slack.fake.repliesTo(otherMessage).length >= 1 && slack.fake.repliesTo(otherMessage),
      20_000,
      'the merged one’s reply',
    );
    expect(otherReplies.at(-1)!.text).toContain('Resolved: merged into #');
  });
});
