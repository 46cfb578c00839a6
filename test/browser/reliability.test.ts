import { dashboardInBrowser, logInInBrowser, saveScreenshot } from '../support/browser';
import { readyWorkspaceOf, signUpAndLogIn } from '../support/dashboard';
import { notificationsOf, pagingService, responder, trigger } from '../support/paging';
import { waitFor } from '../support/wait';

// The Reliability page in a real browser against the real stack: a page goes out (dev inbox), and
// the page shows its alert-to-first-page latency and the watchdog's state from /api/status.

const suite = dashboardInBrowser();

describe('the Reliability page in Chromium', () => {
  it('when an incident was paged, then Reliability (under Insights) shows the last hour’s p50 and p99 and that the canary never passed', async () => {
    const owner = await signUpAndLogIn(suite.app, suite.stack.orm);
    const { serviceId } = await readyWorkspaceOf(suite.stack.orm, owner.organizationId);
    const person = await responder(suite.stack.orm, owner.organizationId, 'email');
    const ingestUrl = await pagingService(
      suite.stack.orm,
      { organizationId: owner.organizationId, serviceId },
      { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] },
      suite.stack.urls.ingest,
    );
    const incidentId = await trigger(ingestUrl);
    await waitFor(async () => (await notificationsOf(suite.stack.orm, incidentId)).some((p) => p.status === 'sent'), 20_000, 'the page sent');

    await logInInBrowser(suite.page, suite.app, owner);
    await suite.page.getByRole('link', { name: 'Reliability' }).click();
    await suite.page.getByRole('heading', { name: 'Reliability', level: 2 }).waitFor();
    const hour = suite.page.getByRole('table', { name: 'Alert to first page' }).getByRole('row', { name: /^Last hour/ });
    await hour.waitFor();
    expect(await hour.textContent()).toMatch(/^Last hour\d+(?:\.\d)? m?s\d+(?:\.\d)? m?s$/);
    expect(await suite.page.getByRole('region', { name: 'Watchdog canary' }).textContent()).toContain('never');
    await saveScreenshot(suite.page, 'reliability');
  }, 120_000);
});
