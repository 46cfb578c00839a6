import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPlan } from '../../src/services/workspace';
import { dashboardInBrowser, logInInBrowser, saveScreenshot } from '../support/browser';
import { dashboard, signUpAndLogIn } from '../support/dashboard';
import { waitFor } from '../support/wait';

// The Deliveries page in a real browser against the real stack: a subscription's test ping goes
// through the one delivery queue and shows there. The receiver is local: private targets allowed.

let pings = 0;
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    pings += 1;
    res.writeHead(204).end();
  });
});

const suite = dashboardInBrowser({
  stack: async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    return { env: { ALLOW_PRIVATE_TARGETS: 'true' } };
  },
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

describe('the Deliveries page in Chromium', () => {
  it('when an admin opens Deliveries from Integrations, then a delivered test ping shows with its integration and status, and never its URL', async () => {
    const owner = await signUpAndLogIn(suite.app, suite.stack.orm);
    await setPlan(suite.stack.orm, owner.organizationId, 'STARTER');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/klaxon-secret-path`;
    const hook = await dashboard(suite.app, 'POST', '/outgoing-webhooks', { session: owner, body: { url } });
    expect(hook.status).toBe(201);
    expect((await dashboard(suite.app, 'POST', `/outgoing-webhooks/${hook.body.data.id}/test`, { session: owner })).status).toBe(202);
    await waitFor(async () => pings === 1, 20_000, 'the ping delivered');

    await logInInBrowser(suite.page, suite.app, owner);
    await suite.page.getByRole('link', { name: 'Integrations' }).click();
    await suite.page.getByRole('link', { name: 'Deliveries' }).click();
    await suite.page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    const row = suite.page.getByRole('table', { name: 'Deliveries' }).getByRole('row', { name: /ping/ });
    await row.getByText('delivered').waitFor();
    await row.getByText('Outgoing webhooks').waitFor();
    expect(await suite.page.content()).not.toContain('klaxon-secret-path');
    await saveScreenshot(suite.page, 'deliveries');
  }, 120_000);
});
