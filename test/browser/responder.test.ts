import { knexOf } from '../../src/db/knex';
import { createSource } from '../../src/services/ingest/sources';
import { addContactMethod } from '../../src/services/paging/contacts';
import { createEscalationPolicy } from '../../src/services/paging/escalation-policies';
import { addNotificationRule } from '../../src/services/paging/notification-rules';
import { createService, createTeam } from '../../src/services/workspace';
import { createApiToken } from '../../src/services/workspace/api-tokens';
import { setPlan } from '../../src/services/workspace/workspaces';
import type { TwilioFake } from '../../src/integrations/twilio/testing/wire-fake';
import { dashboardInBrowser, logInInBrowser, saveScreenshot, sidewaysOverflow, signUpInBrowser } from '../support/browser';
import { newAccount, signUpAndLogIn } from '../support/dashboard';
import { phoneNumber, trigger, twilioAccount } from '../support/paging';

// The responder's path in a real browser against the real stack: sign up, verify from the
// emailed link, log in, set up, see an alert appear live, see who was paged and why,
// acknowledge it, and no further page goes out (the Twilio fake speaks the wire protocol).
let twilio: TwilioFake;
const suite = dashboardInBrowser({
  page: { viewport: { width: 1280, height: 800 } },
  stack: async () => {
    const account = await twilioAccount();
    twilio = account.fake;
    return { devInbox: true, env: account.env };
  },
});
afterAll(() => twilio?.close());

const app = () => suite.app;

describe('the dashboard in Chromium', () => {
  it('when a newcomer signs up, verifies from the dev inbox, sets up a service and a webhook and an alert arrives, then it appears without reloading, shows who was paged and why, and Acknowledge stops the escalation', async () => {
    const account = newAccount();
    await signUpInBrowser(suite.page, app(), account);
    await suite.page.getByText('No incidents here').waitFor();

    // Behind the scenes, what other pages of the dashboard set up (their own browser tests drive
    // them): a paid plan (FREE pages by email only), a verified phone with a rule, and a policy
    // that pages the newcomer at once and again 20 s later unless acknowledged.
    const db = knexOf(suite.stack.orm);
    const user = await db('users').where({ email: account.email }).first();
    const organizationId = (await db('memberships').where({ user_id: user.id }).first()).organization_id as string;
    await setPlan(suite.stack.orm, organizationId, 'PRO');
    const phone = phoneNumber();
    const sms = await addContactMethod(suite.stack.orm, { email: account.email, type: 'sms', address: phone });
    await addNotificationRule(suite.stack.orm, { email: account.email, contactMethodId: sms.id, delaySeconds: 0 });
    const ESCALATE_AFTER_S = 20;
    await createEscalationPolicy(suite.stack.orm, {
      organizationId,
      name: 'Primary',
      steps: [
        { delay_seconds: ESCALATE_AFTER_S, targets: [{ type: 'user', id: user.id }] },
        { delay_seconds: 60, targets: [{ type: 'user', id: user.id }] },
      ],
      repeat: 0,
    });

    // Day one, in the Set up page: a team, a service paging with the policy, a webhook; a test notification.
    await suite.page.getByRole('link', { name: 'Set up' }).click();
    await suite.page.getByRole('textbox', { name: 'Team name' }).fill('Ops');
    await suite.page.getByRole('button', { name: 'Create team' }).click();
    await suite.page.getByRole('table', { name: 'Teams' }).getByRole('cell', { name: 'Ops', exact: true }).waitFor();
    // Join the team: its members are who a step targeting it pages, and whom "my teams" means.
    await suite.page.getByRole('button', { name: 'Members of Ops' }).click();
    const team = suite.page.getByRole('dialog', { name: 'Team Ops' });
    await team.getByText('Nobody is in this team yet').waitFor();
    await team.getByRole('combobox', { name: 'Add a member' }).click();
    await suite.page.getByRole('option', { name: account.email }).click();
    await team.getByRole('button', { name: 'Add to team' }).click();
    await team.getByRole('table', { name: 'Members of Ops' }).getByText(account.email).waitFor();
    await suite.page.keyboard.press('Escape');
    await team.waitFor({ state: 'hidden' });
    expect(
      await db('team_members').join('teams', 'teams.id', 'team_members.team_id').where({ 'teams.name': 'Ops', 'team_members.user_id': user.id }).first(),
    ).toBeDefined();
    await suite.page.getByRole('textbox', { name: 'Service name' }).fill('Checkout');
    await suite.page.getByRole('combobox', { name: 'Owning team' }).click();
    await suite.page.getByRole('option', { name: 'Ops' }).click();
    await suite.page.getByRole('combobox', { name: 'Escalation policy', exact: true }).click();
    await suite.page.getByRole('option', { name: 'Primary' }).click();
    await suite.page.getByRole('button', { name: 'Create service' }).click();
    await suite.page.getByRole('table', { name: 'Services' }).getByText('Checkout', { exact: true }).waitFor();
    // The team's row counts its one member and, now, its one service.
    await suite.page
      .getByRole('table', { name: 'Teams' })
      .getByRole('row', { name: /^Ops 1 1 / })
      .waitFor();
    await suite.page.getByRole('textbox', { name: 'Webhook name' }).fill('Prometheus');
    await suite.page.getByRole('checkbox', { name: 'SMS' }).check();
    await suite.page.getByRole('combobox', { name: 'Service', exact: true }).click();
    await suite.page.getByRole('option', { name: 'Checkout' }).click();
    await suite.page.getByRole('button', { name: 'Create webhook' }).click();
    await suite.page.getByRole('button', { name: 'Copy the ingestion URL of Prometheus' }).waitFor();
    await suite.page.getByRole('button', { name: 'Send a test notification for Prometheus' }).click();
    await suite.page.getByText(/EMAIL: sent to /).waitFor();
    await suite.page.getByText(/SMS: sent to /).waitFor();
    await saveScreenshot(suite.page, 'set-up');
    const testTexts = twilio.messages().length;

    const listed = await suite.page.evaluate(async () => (await (await fetch('/api/webhooks')).json()) as { webhooks: Array<{ webhook_url: string }> });
    await suite.page.getByRole('link', { name: 'Incidents' }).click();
    await suite.page.getByText('No incidents here').waitFor();
    const id = await trigger(listed.webhooks[0].webhook_url, 'Checkout is down');

    // No reload: the event stream brings it in.
    const row = suite.page.getByRole('listitem', { name: '#1 Checkout is down' });
    await row.waitFor({ timeout: 15_000 });
    await saveScreenshot(suite.page, 'incident-list');
    await row.getByRole('link', { name: /Checkout is down/ }).click();
    await suite.page.getByRole('heading', { name: '#1 Checkout is down' }).waitFor();
    // Who was paged and why: the decision names the newcomer and their rules' channels (the webhook
    // lists every channel, so both rules apply: the sign-up's email and the SMS); the page went to the phone.
    await suite.page.getByText(`Paged ${account.email}: email, sms`).waitFor({ timeout: 15_000 });
    await suite.page
      .getByRole('list', { name: 'Pages sent' })
      .getByRole('listitem', { name: new RegExp(`^sms to ${account.email}: (sent|delivered)$`) })
      .waitFor();
    expect(twilio.messages().length).toBe(testTexts + 1);
    await suite.page.getByRole('button', { name: 'Acknowledge' }).click();
    await suite.page.getByText('ACKNOWLEDGED', { exact: true }).waitFor();
    await saveScreenshot(suite.page, 'incident-page');
    // Once acknowledged, the buttons are the moves the state allows.
    expect(await suite.page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    expect(await suite.page.getByRole('button', { name: 'Resolve' }).count()).toBe(1);

    // The customer API says ACKNOWLEDGED, and once the second step was due, no further text went out.
    const token = await createApiToken(suite.stack.orm, { organizationId, email: account.email, access: 'READ_ONLY', days: 1 });
    const v1 = await fetch(`${app()}/api/v1/organizations/${organizationId}/incidents/${id}`, { headers: { Authorization: `Bearer ${token.token}` } });
    expect(v1.status).toBe(200);
    expect(((await v1.json()) as { data: { status: string } }).data.status).toBe('ACKNOWLEDGED');
    const opened = new Date((await db('incidents').where({ id }).first()).created_at as string | Date);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, opened.getTime() + (ESCALATE_AFTER_S + 5) * 1000 - Date.now())));
    expect(
      twilio
        .messages()
        .slice(testTexts)
        .map((m) => m.params.To),
    ).toEqual([phone]);
  }, 150_000);

  it('when the incident list and an incident page are opened on a 390 px phone, then nothing scrolls sideways', async () => {
    const owner = await signUpAndLogIn(suite.stack.urls.app, suite.stack.orm);
    const team = await createTeam(suite.stack.orm, { organizationId: owner.organizationId, name: 'Ops' });
    const service = await createService(suite.stack.orm, { organizationId: owner.organizationId, teamId: team.id, name: 'Checkout' });
    const source = await createSource(suite.stack.orm, {
      organizationId: owner.organizationId,
      serviceId: service.id,
      name: 'alerts',
      ingestBaseUrl: suite.stack.urls.ingest,
    });
    const id = await trigger(
      source.ingest_url,
      'A very long alert title that a phone screen has to wrap instead of scrolling sideways: disk /var/lib/postgresql/data is 97% full on db-primary-01.eu-west-1',
    );
    const phone = await suite.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      await logInInBrowser(phone, app(), owner);
      await phone.goto(`${app()}/`);
      await phone.getByRole('listitem').first().waitFor();
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
      await phone.goto(`${app()}/incidents/${id}`);
      await phone.getByRole('button', { name: 'Acknowledge' }).waitFor();
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
      await saveScreenshot(phone, 'incident-page-390');
    } finally {
      await phone.close();
    }
  }, 60_000);

  it('when an admin pauses, resumes, rotates and deletes a webhook on the Set up page, then its ingestion URL refuses, accepts, moves and goes accordingly', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const team = await createTeam(suite.stack.orm, { organizationId: owner.organizationId, name: 'Ops' });
    await createService(suite.stack.orm, { organizationId: owner.organizationId, teamId: team.id, name: 'Checkout' });
    const { page } = suite;
    await logInInBrowser(page, app(), owner);
    await page.getByRole('link', { name: 'Set up' }).click();
    await page.getByRole('textbox', { name: 'Webhook name' }).fill('Grafana');
    await page.getByRole('combobox', { name: 'Service', exact: true }).click();
    await page.getByRole('option', { name: 'Checkout' }).click();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('button', { name: 'Pause Grafana' }).waitFor();
    const urlNow = async () =>
      (await page.evaluate(async () => (await (await fetch('/api/webhooks')).json()) as { webhooks: Array<{ webhook_url: string }> })).webhooks[0]?.webhook_url;
    const post = async (url: string) =>
      (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Disk full', severity: 'low' }) }))
        .status;
    const first = await urlNow();

    await page.getByRole('button', { name: 'Pause Grafana' }).click();
    await page.getByRole('button', { name: 'Resume Grafana' }).waitFor();
    await page.getByText('paused', { exact: true }).waitFor();
    expect(await post(first)).toBe(423);
    await page.getByRole('button', { name: 'Resume Grafana' }).click();
    await page.getByRole('button', { name: 'Pause Grafana' }).waitFor();
    expect(await post(first)).toBe(202);

    // Rotating asks first (the old URL stops at once), then the page holds the new one.
    await page.getByRole('button', { name: 'Rotate the URL of Grafana' }).click();
    await page.getByRole('button', { name: 'Confirm: rotate the URL of Grafana' }).click();
    await page.getByRole('button', { name: 'Rotate the URL of Grafana' }).waitFor();
    const second = await urlNow();
    expect(second).not.toBe(first);
    expect(await post(first)).toBe(404);
    expect(await post(second)).toBe(202);

    await page.getByRole('button', { name: 'Delete Grafana' }).click();
    await page.getByRole('button', { name: 'Confirm: delete Grafana' }).click();
    await page.getByText('No webhook yet').waitFor();
    expect(await post(second)).toBe(404);
  }, 60_000);
});
