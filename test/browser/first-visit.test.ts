import { dashboardInBrowser, saveScreenshot, signUpInBrowser } from '../support/browser';
import { newAccount, signUpAndLogIn } from '../support/dashboard';
import { trigger } from '../support/paging';

// The README's first visit, as a newcomer clicks it: sign up, verify from the dev inbox, log in;
// the workspace is ready to page, so one webhook (a name, nothing else) and one alert later the
// newcomer is paged, with no team, service or policy made by hand.
const suite = dashboardInBrowser({ stack: { devInbox: true } });
const app = () => suite.app;

describe('a first visit in Chromium', () => {
  it('when a newcomer signs up and creates a webhook with just a name, then the first alert to it pages them by email with nothing else set up', async () => {
    const account = newAccount();
    await signUpInBrowser(suite.page, app(), account);

    // Set up says what is ready: the team named after the workspace, paged through "Default".
    await suite.page.getByRole('link', { name: 'Set up' }).click();
    const ready = suite.page.getByRole('status', { name: 'Your workspace is ready to page' });
    await ready
      .getByText(`Alerts on Default service page the team ${account.organization_name} (1 person) through the escalation policy “Default”`, { exact: false })
      .waitFor();
    await suite.page.getByRole('table', { name: 'Services' }).getByText('Default service', { exact: true }).waitFor();
    await saveScreenshot(suite.page, 'set-up-ready');

    await suite.page.getByRole('textbox', { name: 'Webhook name' }).fill('Grafana');
    await suite.page.getByRole('button', { name: 'Create webhook' }).click();
    await suite.page.getByRole('button', { name: 'Copy the ingestion URL of Grafana' }).waitFor();
    // The notice has done its job once a webhook exists.
    await ready.waitFor({ state: 'detached' });

    const listed = await suite.page.evaluate(async () => (await (await fetch('/api/webhooks')).json()) as { webhooks: Array<{ webhook_url: string }> });
    await suite.page.getByRole('link', { name: 'Incidents' }).click();
    await trigger(listed.webhooks[0].webhook_url, 'Checkout is down');
    const row = suite.page.getByRole('listitem', { name: '#1 Checkout is down' });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('link', { name: /Checkout is down/ }).click();
    await suite.page.getByText(`Paged ${account.email}: email`).waitFor({ timeout: 15_000 });

    // The page itself is in the dev inbox, where a newcomer without an email provider reads it.
    await suite.page.goto(`${app()}/dev/inbox`);
    await suite.page.getByLabel(`email to ${account.email}`).filter({ hasText: 'Checkout is down' }).first().waitFor({ timeout: 15_000 });
  }, 150_000);

  it('when the dashboard is opened under another name than APP_URL’s, then logging in says which address to open', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    // The stack's APP_URL is http://127.0.0.1:<port>; the same listener answers as localhost.
    const elsewhere = app().replace('127.0.0.1', 'localhost');
    await suite.page.goto(`${elsewhere}/login`);
    await suite.page.getByRole('textbox', { name: 'Email', exact: true }).fill(owner.email);
    await suite.page.getByRole('textbox', { name: 'Password', exact: true }).fill(owner.password);
    await suite.page.getByRole('button', { name: 'Log in' }).click();
    await suite.page.getByText(`open ${new URL(app()).origin}/`, { exact: false }).waitFor();
  }, 60_000);
});
