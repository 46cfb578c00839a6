import { knexOf } from '../../src/db/knex';
import { setPlan } from '../../src/services/workspace';
import { SlackApiFake } from '../../src/integrations/slack/testing/wire-fake';
import { dashboardInBrowser, logInInBrowser, saveScreenshot } from '../support/browser';
import { signUpAndLogIn } from '../support/dashboard';

// Connecting Slack in a real browser against the real stack: "Connect Slack" goes to the Slack
// fake's authorize page, which approves at once and sends the browser back to /hooks/slack/oauth.

const fake = new SlackApiFake();
const suite = dashboardInBrowser({
  stack: async () => {
    await fake.start();
    return { env: fake.env(), worker: false };
  },
});
afterAll(() => fake.stop());

describe('Slack in Chromium', () => {
  it('when a new STARTER workspace connects Slack and picks #alerts for a service, then the page says connected and the service’s channel is stored', async () => {
    const owner = await signUpAndLogIn(suite.app, suite.stack.orm);
    await setPlan(suite.stack.orm, owner.organizationId, 'STARTER');
    const { page } = suite;
    await logInInBrowser(page, suite.app, owner);

    await page.getByRole('link', { name: 'Integrations' }).click();
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    const slack = page.getByRole('region', { name: 'Slack' });
    await slack.getByText('not connected').waitFor();
    await slack.getByRole('link', { name: 'Connect Slack' }).click();

    // Through the fake's authorize page and back.
    await page.waitForURL(/\/integrations\?slack=connected$/);
    await page.getByText('Slack connected').waitFor();
    await slack.getByText(fake.teamName).waitFor();
    await slack.getByText('by Ada Owner', { exact: false }).waitFor();
    await saveScreenshot(page, 'integrations-slack');

    await page.getByRole('link', { name: 'Set up' }).click();
    await page.getByRole('button', { name: 'Chat for Default service' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chat for Default service' });
    const picker = dialog.getByRole('textbox', { name: 'Slack channel' }).or(dialog.getByRole('combobox', { name: 'Slack channel' }));
    await picker.first().click();
    await page.getByRole('option', { name: '#alerts' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved.').waitFor();

    const service = await knexOf(suite.stack.orm)('services').where({ organization_id: owner.organizationId, name: 'Default service' }).first();
    expect(await knexOf(suite.stack.orm)('service_chat_destinations').where({ service_id: service.id, provider: 'slack' }).first()).toMatchObject({
      settings: { channel_id: 'C0ALERTS01', channel_name: 'alerts' },
    });
    const api = (await page.evaluate(async (id) => (await fetch(`/api/services/${id}/chat`)).json(), service.id)) as { data: unknown };
    expect(api.data).toMatchObject({ slack_channel_id: 'C0ALERTS01', slack_channel_name: 'alerts', teams_webhook_url: null });
  }, 120_000);
});
