import { knexOf } from '../../src/db/knex';
import { dashboardInBrowser, saveScreenshot, sidewaysOverflow } from '../support/browser';
import { pagingService, responder, statusOf, timelineOf, trigger } from '../support/paging';
import { waitFor } from '../support/wait';
import { seedWorkspace } from '../support/workspace';

// The page behind a page's link (docs/action-page.md), on a phone in Chromium: the
// link from the page's email (here the dev inbox, as without an email provider) opens a styled
// page that shows the incident and names its button; opening it changes nothing; the click acts
// once, says what happened and links to the incident. No script runs: the app's CSP allows none inline.
const suite = dashboardInBrowser({
  stack: { devInbox: true },
  page: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
});

/** An incident paging one person by email, and the Acknowledge and Resolve links of that email. */
async function pagedByEmail(title: string) {
  const ws = await seedWorkspace(suite.stack.orm);
  const person = await responder(suite.stack.orm, ws.organizationId, 'email');
  const ingestUrl = await pagingService(
    suite.stack.orm,
    ws,
    { steps: [{ delay_seconds: 600, targets: [{ type: 'user', id: person.id }] }] },
    suite.stack.urls.ingest,
  );
  const incidentId = await trigger(ingestUrl, title);
  const mail = await waitFor(
    async () => (await knexOf(suite.stack.orm)('dev_deliveries').where({ to: person.address, channel: 'email' }).first()) as { body: string } | undefined,
    30_000,
    'the page’s email in the dev inbox',
  );
  const link = (label: string) => new RegExp(`^${label}: (\\S+)$`, 'm').exec(mail.body)![1];
  const { number } = await knexOf(suite.stack.orm)('incidents').where({ id: incidentId }).first('number');
  return { person, incidentId, number: number as number, acknowledge: link('Acknowledge'), resolve: link('Resolve') };
}

describe('the action page behind a page’s link, on a 390 px phone', () => {
  it('when the Acknowledge link is opened, then it shows the incident and "Acknowledge #N" without acting; the click acknowledges once, says so and links to the incident', async () => {
    const { person, incidentId, number, acknowledge } = await pagedByEmail('Checkout is down');
    expect(acknowledge.startsWith(`${suite.app}/hooks/page/`)).toBe(true);

    const opened = await suite.page.goto(acknowledge);
    expect(opened!.status()).toBe(200);
    // Strict: scripts only from the app itself, none inline, and this page loads none at all.
    expect(/script-src ([^;]*)/.exec(opened!.headers()['content-security-policy'])?.[1]).toBe("'self'");
    expect(await suite.page.locator('script').count()).toBe(0);

    const card = suite.page.getByRole('region', { name: `Incident #${number}` });
    await card.getByRole('heading', { name: 'Checkout is down' }).waitFor();
    expect(await card.locator('dl').innerText()).toMatch(/Service\s+API\s+Severity\s+CRITICAL\s+Status\s+TRIGGERED\s+Opened\s+(just now|\d+ min ago)/);
    expect(await suite.page.title()).toBe(`Acknowledge #${number} · Klaxon`);
    const button = suite.page.getByRole('button', { name: `Acknowledge #${number}` });
    // Styled for a thumb: the dashboard's blue, full width of the card, at least 48 px high.
    const box = (await button.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(48);
    expect(box.width).toBeGreaterThan(300);
    expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(34, 139, 230)');
    expect(await suite.page.evaluate(() => getComputedStyle(document.body).fontFamily)).not.toMatch(/^"?Times/);
    expect(await sidewaysOverflow(suite.page)).toBeLessThanOrEqual(0);
    await saveScreenshot(suite.page, 'action-page-before');
    // Opening the link (as a mail scanner would) changed nothing.
    expect(await statusOf(suite.stack.orm, incidentId)).toBe('TRIGGERED');

    await button.click();
    await suite.page.getByRole('status').getByText(`Incident #${number} is acknowledged.`).waitFor();
    expect(await card.locator('dl').innerText()).toContain('ACKNOWLEDGED');
    const toIncident = suite.page.getByRole('link', { name: `Open incident #${number}` });
    expect(await toIncident.getAttribute('href')).toBe(`/incidents/${incidentId}`);
    expect(await sidewaysOverflow(suite.page)).toBeLessThanOrEqual(0);
    await saveScreenshot(suite.page, 'action-page-after');
    expect(await statusOf(suite.stack.orm, incidentId)).toBe('ACKNOWLEDGED');
    expect((await timelineOf(suite.stack.orm, incidentId)).filter((e) => e.to_status === 'ACKNOWLEDGED')).toEqual([
      expect.objectContaining({ actor_id: person.id, via: 'email' }),
    ]);

    // Back and click again: the link acts once; the page says nothing changed and still links to the incident.
    await suite.page.goto(acknowledge);
    await suite.page.getByRole('button', { name: `Acknowledge #${number}` }).click();
    await suite.page.getByRole('status').getByText('This link was already used').waitFor();
    await suite.page.getByRole('link', { name: `Open incident #${number}` }).waitFor();
  });

  it('when the Resolve link is opened, then its button says "Resolve #N" and the click resolves', async () => {
    const { incidentId, number, resolve } = await pagedByEmail('Payments <failing> & retrying');
    await suite.page.goto(resolve);
    // The title is text, never markup.
    await suite.page.getByRole('heading', { name: 'Payments <failing> & retrying' }).waitFor();
    await suite.page.getByRole('button', { name: `Resolve #${number}` }).click();
    await suite.page.getByRole('status').getByText(`Incident #${number} is resolved.`).waitFor();
    expect(await statusOf(suite.stack.orm, incidentId)).toBe('RESOLVED');
  });

  it('when a link is altered, then the page says it is not valid, offers no button, and nothing changes', async () => {
    const { incidentId, acknowledge } = await pagedByEmail('Search is slow');
    const opened = await suite.page.goto(`${acknowledge.slice(0, -2)}xx`);
    expect(opened!.status()).toBe(403);
    await suite.page.getByRole('status').getByText('This link is not valid or has expired.').waitFor();
    expect(await suite.page.getByRole('button').count()).toBe(0);
    expect(await statusOf(suite.stack.orm, incidentId)).toBe('TRIGGERED');
  });
});
