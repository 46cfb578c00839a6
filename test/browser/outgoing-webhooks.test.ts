import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { knexOf } from '../../src/db/knex';
import { setPlan } from '../../src/services/workspace';
import { dashboardInBrowser, logInInBrowser, saveScreenshot } from '../support/browser';
import { signUpAndLogIn } from '../support/dashboard';

// Outgoing webhooks in a real browser against the real stack. The receiver is a local server, so
// private targets are allowed here (ALLOW_PRIVATE_TARGETS), as an operator of a trusted network would.

const received: string[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    received.push(body);
    res.writeHead(204).end();
  });
});

const suite = dashboardInBrowser({
  stack: async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    return { env: { ALLOW_PRIVATE_TARGETS: 'true' } };
  },
  page: { viewport: { width: 1280, height: 900 } },
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

describe('outgoing webhooks in Chromium', () => {
  it('when an admin creates a subscription, then its secret is shown once and it is listed; "Send test" puts a ping in its delivery log', async () => {
    const owner = await signUpAndLogIn(suite.app, suite.stack.orm);
    await setPlan(suite.stack.orm, owner.organizationId, 'STARTER');
    await logInInBrowser(suite.page, suite.app, owner);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/klaxon`;

    await suite.page.getByRole('link', { name: 'Outgoing webhooks' }).click();
    await suite.page.getByRole('heading', { name: 'Outgoing webhooks' }).waitFor();
    await suite.page.getByText('No outgoing webhooks yet').waitFor();
    await suite.page.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
    await suite.page.getByRole('textbox', { name: 'Description' }).fill('our event bus');
    await suite.page.getByRole('button', { name: 'Create outgoing webhook' }).click();

    const shown = suite.page.getByRole('dialog', { name: /signing secret/ });
    await shown.getByText('will not be shown again').waitFor();
    const secret = (await shown.getByLabel('The signing secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await shown.getByRole('button', { name: 'Copy the signing secret' }).waitFor();
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await suite.page.content()).not.toContain(secret);

    const card = suite.page.getByRole('article', { name: `Outgoing webhook ${url}` });
    await card.getByText('our event bus').waitFor();
    await card.getByText('all events').waitFor();

    await card.getByRole('button', { name: 'Send test' }).click();
    const log = card.getByRole('table', { name: `Deliveries to ${url}` });
    const row = log.getByRole('row', { name: /ping/ });
    // Pending until the delivery engine sends it (delivered once it has).
    await row.getByText(/^(pending|delivered)$/).waitFor();
    const [hook] = await knexOf(suite.stack.orm)('outgoing_webhooks').where({ organization_id: owner.organizationId });
    expect(await knexOf(suite.stack.orm)('feed_deliveries').where({ consumer: 'outgoing-webhooks', target_id: hook.id, type: 'ping' })).toHaveLength(1);
    await saveScreenshot(suite.page, 'outgoing-webhooks');
  }, 120_000);
});
