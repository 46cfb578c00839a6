import { randomUUID } from 'node:crypto';
import { knexOf } from '../../../src/db/knex';
import { slackWorkSettled } from '../../../src/integrations/slack';
import { SLACK_ACTION_IDS } from '../../../src/integrations/slack/messages/blocks';
import type { SlackApiFake } from '../../../src/integrations/slack/testing/wire-fake';
import { notificationsOf, pagingService, responder, statusOf, timelineOf, trigger } from '../../support/paging';
import { clickPayload, connectSlack, newSlackUserId, postSigned, slackMember, startSlackStack } from '../../support/slack';
import { startTestStack, type TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { addMember, seedWorkspace } from '../../support/workspace';

let stack: TestStack;
let slack: SlackApiFake;

beforeAll(async () => {
  ({ stack, slack } = await startSlackStack());
});

afterAll(() => Promise.all([stack?.stop(), slack?.stop()]));

const hook = () => `${stack.urls.app}/hooks/slack/interactions`;

/**
 * A workspace connected to Slack with an incident that paged step 1 (so its workflow runs); step 2
 * (an hour later) pages someone else, for escalate now. A Slack member acts on it.
 */
async function connectedIncident() {
  const ws = await seedWorkspace(stack.orm);
  const teamId = await connectSlack(stack.orm, slack, ws.organizationId);
  const first = await responder(stack.orm, ws.organizationId, 'email');
  const second = await responder(stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(
    stack.orm,
    ws,
    {
      steps: [
        { delay_seconds: 3600, targets: [{ type: 'user', id: first.id }] },
        { delay_seconds: 3600, targets: [{ type: 'user', id: second.id }] },
      ],
    },
    stack.urls.ingest,
  );
  const incidentId = await trigger(ingestUrl);
  await waitFor(async () => (await notificationsOf(stack.orm, incidentId)).length > 0, 20_000, 'the first page');
  const member = await slackMember(stack.orm, slack, ws.organizationId);
  return { ws, teamId, incidentId, member, second };
}

/** One signed click; waits for the work done after the answer. */
async function click(
  input: { teamId: string; userId: string; action: keyof typeof SLACK_ACTION_IDS | string; incidentId: string },
  opts: { at?: number; signature?: string } = {},
) {
  const responseUrl = slack.responseUrl();
  const actionId = input.action in SLACK_ACTION_IDS ? SLACK_ACTION_IDS[input.action as keyof typeof SLACK_ACTION_IDS] : input.action;
  const started = Date.now();
  const res = await postSigned(
    hook(),
    clickPayload({ teamId: input.teamId, userId: input.userId, actionId, value: input.incidentId, responseUrl }),
    slack.signingSecret,
    opts,
  );
  const tookMs = Date.now() - started;
  await slackWorkSettled();
  return { res, tookMs, answers: () => slack.responsesTo(responseUrl) as Array<{ response_type: string; replace_original: boolean; text: string }> };
}

const statusChanges = async (incidentId: string) => (await timelineOf(stack.orm, incidentId)).filter((e) => e.type === 'status_change');

describe('acting on an incident from its Slack buttons', () => {
  it('when a member clicks Acknowledge, then Slack hears 200 at once and the incident is acknowledged via Slack by that member', async () => {
    const { teamId, incidentId, member } = await connectedIncident();
    const { res, tookMs, answers } = await click({ teamId, userId: member.slackUserId, action: 'acknowledge', incidentId });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(tookMs).toBeLessThan(3000);
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect((await statusChanges(incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED')).toMatchObject({
      actor_type: 'user',
      actor_id: member.id,
      via: 'slack',
    });
    // The feed (chat messages, outgoing webhooks) names the member: "Acknowledged via Slack by <member>".
    const event = await knexOf(stack.orm)('incident_events').where({ incident_id: incidentId, type: 'incident.acknowledged' }).first();
    expect(event.actor).toEqual({ type: 'user', id: member.id, name: member.email });
    expect(answers()).toEqual([{ response_type: 'ephemeral', replace_original: false, text: expect.stringContaining('acknowledged by') }]);
    // Who clicked was looked up with the workspace's bot token.
    expect(slack.callsOf('users.info').find((c) => c.args.user === member.slackUserId)?.token).toBe(slack.botToken);
  });

  it('when the same member clicks Acknowledge twice (and twice at once), then the incident is acknowledged once and the repeat says by whom', async () => {
    const { teamId, incidentId, member } = await connectedIncident();
    await Promise.all([
      click({ teamId, userId: member.slackUserId, action: 'acknowledge', incidentId }),
      click({ teamId, userId: member.slackUserId, action: 'acknowledge', incidentId }),
    ]);
    const again = await click({ teamId, userId: member.slackUserId, action: 'acknowledge', incidentId });
    expect(again.res.status).toBe(200);
    expect(again.answers()[0].text).toMatch(/already acknowledged by/);
    expect((await statusChanges(incidentId)).filter((e) => e.to_status === 'ACKNOWLEDGED')).toHaveLength(1);
  });

  it('when a member clicks Resolve, then the incident is resolved via Slack by them', async () => {
    const { teamId, incidentId, member } = await connectedIncident();
    const { res } = await click({ teamId, userId: member.slackUserId, action: 'resolve', incidentId });
    expect(res.status).toBe(200);
    expect(await statusOf(stack.orm, incidentId)).toBe('RESOLVED');
    expect((await statusChanges(incidentId)).find((e) => e.to_status === 'RESOLVED')).toMatchObject({ actor_id: member.id, via: 'slack' });
  });

  it('when a member clicks Escalate, then the next step is paged now, not in an hour', async () => {
    const { teamId, incidentId, member, second } = await connectedIncident();
    expect((await notificationsOf(stack.orm, incidentId)).some((n) => n.user_id === second.id)).toBe(false);
    const { res, answers } = await click({ teamId, userId: member.slackUserId, action: 'escalate', incidentId });
    expect(res.status).toBe(200);
    expect(answers()[0].text).toMatch(/escalating/);
    await waitFor(async () => (await notificationsOf(stack.orm, incidentId)).some((n) => n.user_id === second.id), 20_000, 'the step 2 page');
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
  });

  it('when Escalate is clicked twice at once, then one step is escalated and the other click hears it is already being paged', async () => {
    const { teamId, incidentId, member } = await connectedIncident();
    const clicks = await Promise.all([
      click({ teamId, userId: member.slackUserId, action: 'escalate', incidentId }),
      click({ teamId, userId: member.slackUserId, action: 'escalate', incidentId }),
    ]);
    const texts = clicks.map((c) => c.answers()[0].text).sort();
    expect(texts).toEqual([expect.stringMatching(/escalating to the next step now/), expect.stringMatching(/already being paged/)]);
  });

  it('when the signature is wrong or missing, then 401 and nothing changes', async () => {
    const { teamId, incidentId, member } = await connectedIncident();
    const before = await timelineOf(stack.orm, incidentId);
    const forged = await click({ teamId, userId: member.slackUserId, action: 'acknowledge', incidentId }, { signature: `v0=${'0'.repeat(64)}` });
    expect(forged.res.status).toBe(401);
    expect(forged.res.text).not.toContain(slack.signingSecret);
    const unsigned = await fetch(hook(), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payload=%7B%7D' });
    expect(unsigned.status).toBe(401);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await timelineOf(stack.orm, incidentId)).toEqual(before);
    expect(forged.answers()).toEqual([]);
  });

  it('when the request is 6 minutes old (correctly signed), then 401 and nothing changes', async () => {
    const { teamId, incidentId, member } = await connectedIncident();
    const stale = await click({ teamId, userId: member.slackUserId, action: 'acknowledge', incidentId }, { at: Math.floor(Date.now() / 1000) - 360 });
    expect(stale.res.status).toBe(401);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(stale.answers()).toEqual([]);
  });

  it('when someone whose Slack email matches no member clicks, then they are told to link their account and nothing changes', async () => {
    const { teamId, incidentId } = await connectedIncident();
    const stranger = slack.addUser({ id: newSlackUserId(), email: `stranger-${randomUUID().slice(0, 8)}@example.test`, teamId });
    const { res, answers } = await click({ teamId, userId: stranger.id, action: 'acknowledge', incidentId });
    expect(res.status).toBe(200);
    expect(answers()).toEqual([{ response_type: 'ephemeral', replace_original: false, text: expect.stringContaining('Link your Slack account') }]);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await statusChanges(incidentId)).toEqual([]);
  });

  it('when the matching member has not verified their email, or is a member of another workspace only, then they are a stranger', async () => {
    const { teamId, incidentId, ws } = await connectedIncident();
    const unverified = await slackMember(stack.orm, slack, ws.organizationId, { verified: false });
    const elsewhere = await seedWorkspace(stack.orm);
    const outsider = await addMember(stack.orm, elsewhere.organizationId, 'ACCOUNT_ADMIN');
    const outsiderSlack = slack.addUser({ id: newSlackUserId(), email: outsider.email, teamId });
    for (const userId of [unverified.slackUserId, outsiderSlack.id]) {
      const { answers } = await click({ teamId, userId, action: 'resolve', incidentId });
      expect(answers()[0].text).toContain('Link your Slack account');
    }
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await statusChanges(incidentId)).toEqual([]);
  });

  it('when a Slack user of another Slack team clicks in the installed team (a shared channel), with the email of a verified member, then they are told to link their Slack account and nothing changes', async () => {
    const { teamId, incidentId, ws } = await connectedIncident();
    const guest = await slackMember(stack.orm, slack, ws.organizationId, { slackTeamId: 'T0ANOTHER01' });
    const { res, answers } = await click({ teamId, userId: guest.slackUserId, action: 'acknowledge', incidentId });
    expect(res.status).toBe(200);
    expect(answers()).toEqual([{ response_type: 'ephemeral', replace_original: false, text: expect.stringContaining('Link your Slack account') }]);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await statusChanges(incidentId)).toEqual([]);
  });

  it('when the Slack email matching a verified member is not confirmed in Slack, then they are told to link their Slack account and nothing changes', async () => {
    const { teamId, incidentId, ws } = await connectedIncident();
    const unconfirmed = await slackMember(stack.orm, slack, ws.organizationId, { emailConfirmed: false });
    for (const action of ['acknowledge', 'resolve', 'escalate'] as const) {
      const { answers } = await click({ teamId, userId: unconfirmed.slackUserId, action, incidentId });
      expect(answers()[0].text).toContain('Link your Slack account');
    }
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await timelineOf(stack.orm, incidentId)).toEqual(expect.not.arrayContaining([expect.objectContaining({ via: 'slack' })]));
    expect(await statusChanges(incidentId)).toEqual([]);
  });

  it('when the workspace was downgraded to FREE with Slack still connected, then a member’s click changes nothing and is answered that chat needs STARTER or above', async () => {
    const { teamId, incidentId, member, ws } = await connectedIncident();
    await knexOf(stack.orm)('organizations').where({ id: ws.organizationId }).update({ plan: 'FREE' });
    const before = await timelineOf(stack.orm, incidentId);
    for (const action of ['acknowledge', 'resolve', 'escalate'] as const) {
      const { res, answers } = await click({ teamId, userId: member.slackUserId, action, incidentId });
      expect(res.status).toBe(200);
      expect(answers()).toEqual([
        { response_type: 'ephemeral', replace_original: false, text: expect.stringMatching(/STARTER plan or above.*on FREE: nothing changed/) },
      ]);
    }
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await timelineOf(stack.orm, incidentId)).toEqual(before);
  });

  it('when a Stakeholder clicks Acknowledge, Resolve or Escalate, then they are told a Stakeholder does not act, and nothing changes', async () => {
    const { teamId, incidentId, ws } = await connectedIncident();
    const reader = await slackMember(stack.orm, slack, ws.organizationId, { role: 'STAKEHOLDER' });
    for (const action of ['acknowledge', 'resolve', 'escalate']) {
      const { answers } = await click({ teamId, userId: reader.slackUserId, action, incidentId });
      expect(answers()[0].text).toMatch(/a Stakeholder reads incidents but does not acknowledge, resolve or escalate them/);
    }
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await statusChanges(incidentId)).toEqual([]);
  });

  it('when the button is not one of Klaxon’s, or names an incident of a workspace not connected to that Slack team, then nothing changes', async () => {
    const { teamId, incidentId, member } = await connectedIncident();
    const usersInfoBefore = slack.callsOf('users.info').length;
    const unknown = await click({ teamId, userId: member.slackUserId, action: 'klaxon_page_everyone', incidentId });
    expect(unknown.res.status).toBe(200);
    expect(unknown.answers()).toEqual([]);
    expect(slack.callsOf('users.info').length).toBe(usersInfoBefore);

    const otherTeam = await click({ teamId: 'T0NOTOURS1', userId: member.slackUserId, action: 'acknowledge', incidentId });
    expect(otherTeam.res.status).toBe(200);
    expect(otherTeam.answers()[0].text).toMatch(/not in a Klaxon workspace connected/);
    const notAnId = await click({ teamId, userId: member.slackUserId, action: 'acknowledge', incidentId: 'DROP TABLE incidents' });
    expect(notAnId.answers()[0].text).toMatch(/no Klaxon incident/);
    expect(await statusOf(stack.orm, incidentId)).toBe('TRIGGERED');
    expect(await statusChanges(incidentId)).toEqual([]);
  });

  it('when the body is larger than 64 KB, then 413 and nothing is read', async () => {
    const res = await postSigned(hook(), { payload: 'x'.repeat(70 * 1024) }, slack.signingSecret);
    expect(res.status).toBe(413);
  });
});

describe('Slack not configured', () => {
  it('when SLACK_* is unset, then the interactions and commands hooks answer 404', async () => {
    const bare = await startTestStack({ worker: false });
    try {
      for (const path of ['interactions', 'commands']) {
        const res = await postSigned(`${bare.urls.app}/hooks/slack/${path}`, { payload: '{}' }, 'whatever');
        expect(res.status).toBe(404);
      }
    } finally {
      await bare.stop();
    }
  });
});
