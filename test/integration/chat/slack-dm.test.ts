import { addContactMethod } from '../../../src/services/paging/contacts';
import { addNotificationRule } from '../../../src/services/paging/notification-rules';
import { knexOf } from '../../../src/db/knex';
import { slackWorkSettled } from '../../../src/integrations/slack';
import type { SlackApiFake } from '../../../src/integrations/slack/testing/wire-fake';
import { dashboard, expectDashboardError, memberSession } from '../../support/dashboard';
import { notificationsOf, pagingService, statusOf, timelineOf, trigger } from '../../support/paging';
import { clickPayload, connectSlack, newSlackUserId, postSigned, startSlackStack } from '../../support/slack';
import type { TestStack } from '../../support/stack';
import { waitFor } from '../../support/wait';
import { seedWorkspace } from '../../support/workspace';
import type { Plan } from '../../../src/domain/plans';

let stack: TestStack;
let slack: SlackApiFake;

beforeAll(async () => {
  ({ stack, slack } = await startSlackStack());
});

afterAll(() => Promise.all([stack?.stop(), slack?.stop()]));

const api = (method: string, path: string, session: { cookie: string; csrf: string }, body?: unknown) =>
  dashboard(stack.urls.app, method, path, { session, body });

/** A signed-in member of a fresh workspace (connected to Slack unless told otherwise), with a Slack account of their email unless told otherwise. */
async function signedInMember(opts: { plan?: Plan; connected?: boolean; onSlack?: boolean; slackTeamId?: string; emailConfirmed?: boolean } = {}) {
  const ws = await seedWorkspace(stack.orm);
  // Seeding makes API tokens, which FREE refuses: the plan is set afterwards.
  if (opts.plan) await knexOf(stack.orm)('organizations').where({ id: ws.organizationId }).update({ plan: opts.plan });
  const teamId = opts.connected === false ? undefined : await connectSlack(stack.orm, slack, ws.organizationId);
  const session = await memberSession(stack.urls.app, stack.orm, ws.organizationId, 'MEMBER');
  const slackUserId = newSlackUserId();
  if (opts.onSlack !== false) slack.addUser({ id: slackUserId, email: session.email, teamId: opts.slackTeamId ?? teamId, emailConfirmed: opts.emailConfirmed });
  return { ws, teamId, session, slackUserId };
}

/** Pages the member first (their notification rule on the contact method), opening an incident. */
async function pageThrough(ws: { organizationId: string; serviceId: string }, member: { userId: string; email: string }, contactMethodId: string) {
  await addNotificationRule(stack.orm, { email: member.email, contactMethodId, delaySeconds: 0 });
  const ingestUrl = await pagingService(stack.orm, ws, { steps: [{ delay_seconds: 3600, targets: [{ type: 'user', id: member.userId }] }] }, stack.urls.ingest);
  return trigger(ingestUrl);
}

const settledPage = (incidentId: string) =>
  waitFor(async () => (await notificationsOf(stack.orm, incidentId)).find((n) => ['sent', 'failed'].includes(n.status)), 20_000, 'the page settled');

describe('Slack DMs as a contact method', () => {
  it('when a member links Slack and a rule uses it, then a page opens a DM and posts the incident with its buttons, which act as them', async () => {
    const { ws, session, slackUserId, teamId } = await signedInMember();
    const linked = await api('POST', '/me/slack/link', session);
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({ type: 'slack', address: slackUserId, user_id: session.userId, disabled_at: null });
    expect(slack.callsOf('users.lookupByEmail').at(-1)).toMatchObject({ args: { email: session.email }, token: slack.botToken });

    const incidentId = await pageThrough(ws, session, linked.body.data.id);
    const page = await settledPage(incidentId);
    expect(page).toMatchObject({ channel: 'slack', target: slackUserId, status: 'sent', provider: 'slack' });
    const open = slack.callsOf('conversations.open').find((c) => c.args.users === slackUserId);
    expect(open?.token).toBe(slack.botToken);
    const [dm] = slack.postsIn(`D${slackUserId.slice(1)}`);
    expect(dm.text).toContain('Triggered');
    const buttons = (dm.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>).find((b) => b.type === 'actions')!.elements!;
    expect(buttons.map((b) => [b.action_id, b.value])).toEqual([
      ['klaxon_acknowledge', incidentId],
      ['klaxon_resolve', incidentId],
      ['klaxon_escalate', incidentId],
    ]);

    // The DM's Acknowledge button: a signed interaction from that Slack user.
    const responseUrl = slack.responseUrl();
    const clicked = await postSigned(
      `${stack.urls.app}/hooks/slack/interactions`,
      clickPayload({ teamId: teamId!, userId: slackUserId, actionId: buttons[0].action_id, value: buttons[0].value, responseUrl }),
      slack.signingSecret,
    );
    expect(clicked.status).toBe(200);
    await slackWorkSettled();
    expect(await statusOf(stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect((await timelineOf(stack.orm, incidentId)).find((e) => e.to_status === 'ACKNOWLEDGED')).toMatchObject({ actor_id: session.userId, via: 'slack' });
  });

  it('when linking again, then the same contact method is kept; unlinking removes it (204) with its rules', async () => {
    const { session, slackUserId } = await signedInMember();
    const first = await api('POST', '/me/slack/link', session);
    const again = await api('POST', '/me/slack/link', session);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    await addNotificationRule(stack.orm, { email: session.email, contactMethodId: first.body.data.id, delaySeconds: 0 });
    const unlinked = await api('DELETE', '/me/slack/link', session);
    expect(unlinked.status).toBe(204);
    expect(await knexOf(stack.orm)('contact_methods').where({ user_id: session.userId, type: 'slack' })).toEqual([]);
    expect(await knexOf(stack.orm)('notification_rules').where({ contact_method_id: first.body.data.id })).toEqual([]);
    expect((await api('POST', '/me/slack/link', session)).body.data.address).toBe(slackUserId);
  });

  it('when Slack has nobody with the member’s email, then 404 slack_user_not_found and nothing is stored', async () => {
    const { session } = await signedInMember({ onSlack: false });
    expectDashboardError(await api('POST', '/me/slack/link', session), 404, 'slack_user_not_found');
    expect(await knexOf(stack.orm)('contact_methods').where({ user_id: session.userId, type: 'slack' })).toEqual([]);
  });

  it('when the Slack account with the member’s email is of another Slack team, or its email is unconfirmed in Slack, then 404 slack_user_not_found and nothing is stored', async () => {
    for (const who of [{ slackTeamId: 'T0ANOTHER03' }, { emailConfirmed: false }]) {
      const { session } = await signedInMember(who);
      expectDashboardError(await api('POST', '/me/slack/link', session), 404, 'slack_user_not_found');
      expect(await knexOf(stack.orm)('contact_methods').where({ user_id: session.userId, type: 'slack' })).toEqual([]);
    }
  });

  it('when the workspace has no Slack installation, then 409 slack_not_connected', async () => {
    const { session } = await signedInMember({ connected: false });
    expectDashboardError(await api('POST', '/me/slack/link', session), 409, 'slack_not_connected');
  });

  it('when the workspace is on FREE, then linking is refused with 403 plan_limit_reached', async () => {
    const { session } = await signedInMember({ plan: 'FREE' });
    expectDashboardError(await api('POST', '/me/slack/link', session), 403, 'plan_limit_reached');
  });

  it('when someone types a Slack member id into the generic contact-method API, then it is refused: Slack ids come from linking', async () => {
    const { session, slackUserId } = await signedInMember();
    expectDashboardError(await api('POST', '/contact-methods', session, { type: 'slack', address: slackUserId }), 400, 'slack_link_required');
  });

  it('when a FREE workspace holds a slack contact method, then its pages go by email like every other channel but email', async () => {
    const { ws, session, slackUserId } = await signedInMember({ plan: 'FREE' });
    const contact = await addContactMethod(stack.orm, { email: session.email, type: 'slack', address: slackUserId });
    const opens = slack.callsOf('conversations.open').length;
    const incidentId = await pageThrough(ws, session, contact.id);
    const page = await settledPage(incidentId);
    expect(page).toMatchObject({ channel: 'email', target: session.email, status: 'sent' });
    expect(page.fallback_reason).toMatch(/FREE plan pages by email only/);
    expect(slack.callsOf('conversations.open').length).toBe(opens);
  });

  it('when the workspace has no Slack installation, then the page fails saying so and the contact method is disabled with that reason', async () => {
    const { ws, session, slackUserId } = await signedInMember({ connected: false });
    const contact = await addContactMethod(stack.orm, { email: session.email, type: 'slack', address: slackUserId });
    const incidentId = await pageThrough(ws, session, contact.id);
    const page = await settledPage(incidentId);
    expect(page).toMatchObject({ channel: 'slack', status: 'failed' });
    expect(page.error).toMatch(/Slack is not connected to this workspace/);
    const row = await knexOf(stack.orm)('contact_methods').where({ id: contact.id }).first();
    expect(row.disabled_reason).toMatch(/Slack is not connected/);
  });
});
