import { knexOf } from '../../../src/db/knex';
import { dashboardFixture, newAccount, signUpAndLogIn } from '../../support/dashboard';
import { request } from '../../support/http';
import { waitFor } from '../../support/wait';

/**
 * A new workspace is ready to page (docs/api/members-and-teams.md): a fresh sign-up uses the
 * spec's dashboard form as it is, and its first alert pages the owner, with nothing set up first.
 */
const fx = dashboardFixture();
const { api } = fx;
const db = () => knexOf(fx.stack.orm);
/** The page emails the dev inbox holds for an address whose subject names the alert. */
const pagesTo = (to: string, title: string) => db()('dev_deliveries').where({ channel: 'email', to }).where('subject', 'like', `%${title}%`);

describe('a fresh sign-up', () => {
  it('when a workspace is signed up, then it has a team with the owner, "Default service" paging it through the "Default" policy, and the owner’s email at once', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const teams = (await api('GET', '/teams', { session: owner })).body.data;
    const organization = (await api('GET', '/auth/session', { session: owner })).body.data.organization;
    expect(teams).toEqual([expect.objectContaining({ name: organization.name, member_count: 1, service_count: 1 })]);
    const team = (await api('GET', `/teams/${teams[0].id}`, { session: owner })).body.data;
    expect(team.members).toEqual([expect.objectContaining({ id: owner.userId, role: 'BILLING_OWNER' })]);
    const services = (await api('GET', '/services', { session: owner })).body.data;
    expect(services).toEqual([expect.objectContaining({ name: 'Default service', owning_team_id: team.id, escalation_policy_id: expect.any(String) })]);
    const policy = (await api('GET', `/escalation-policies/${services[0].escalation_policy_id}`, { session: owner })).body.data;
    expect(policy).toMatchObject({ name: 'Default', repeat: 2, steps: [{ delay_seconds: 300, targets: [{ type: 'team', id: team.id }] }] });
    const contacts = (await api('GET', '/contact-methods', { session: owner })).body.data;
    expect(contacts).toEqual([expect.objectContaining({ type: 'email', address: owner.email })]);
    const rules = (await api('GET', '/notification-rules', { session: owner })).body.data;
    expect(rules).toEqual([expect.objectContaining({ contact_method_id: contacts[0].id, delay_seconds: 0 })]);
  });

  it('when the spec’s form (name, notificationTypes, targetChannels) is posted, then the webhook goes to the only service and its first alert pages the owner', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const created = await api('POST', '/webhooks', {
      session: owner,
      body: { name: 'Production alerts', notificationTypes: ['EMAIL'], targetChannels: { email: owner.email } },
    });
    expect(created.status).toBe(201);
    const [service] = (await api('GET', '/services', { session: owner })).body.data;
    expect(created.body.data).toMatchObject({ service_id: service.id, target_channels: { email: owner.email } });

    const fired = await request('POST', created.body.data.webhook_url, { body: { title: 'Checkout is slow' } });
    expect(fired.status).toBe(202);
    await waitFor(async () => (await pagesTo(owner.email, 'Checkout is slow')).length === 1, 20_000, 'the page email to the owner');
  });

  it('when an alert reaches a plain source of the new workspace, then the Default policy pages the team, so the owner gets an email', async () => {
    const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
    const source = await api('POST', '/sources', { session: owner, body: { name: 'Alertmanager' } });
    expect(source.status).toBe(201);
    const fired = await request('POST', source.body.data.webhook_url, { body: { title: 'Disk almost full', severity: 'critical' } });
    expect(fired.status).toBe(202);
    const decision = await waitFor(
      () => db()('timeline_entries').where({ incident_id: fired.body.incident_id, type: 'paging_decision' }).first(),
      20_000,
      'the paging decision',
    );
    expect(decision.data.paged).toEqual([expect.objectContaining({ user_id: owner.userId, pages: [{ channel: 'email', delay_seconds: 0 }] })]);
    await waitFor(async () => (await pagesTo(owner.email, 'Disk almost full')).length === 1, 20_000, 'the page email to the owner');
  });

  it('when a sign-up is refused (the email is taken), then no team, service, policy or contact is left behind', async () => {
    const account = newAccount();
    expect((await api('POST', '/auth/signup', { body: account })).status).toBe(201);
    const count = async () =>
      Promise.all(
        ['teams', 'services', 'escalation_policies', 'contact_methods', 'notification_rules', 'organizations'].map(async (t) =>
          Number((await db()(t).count({ n: '*' }))[0].n),
        ),
      );
    const before = await count();
    const again = await api('POST', '/auth/signup', { body: { ...account, organization_name: 'Second try' } });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 'email_taken' });
    expect(await count()).toEqual(before);
  });
});
