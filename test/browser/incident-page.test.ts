import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createSource } from '../../src/services/ingest/sources';
import { createEscalationPolicy } from '../../src/services/paging/escalation-policies';
import { createService, createTeam } from '../../src/services/workspace';
import { updateService } from '../../src/services/workspace/catalog';
import { dashboardInBrowser, logInInBrowser, saveScreenshot, SCREENSHOTS, sidewaysOverflow } from '../support/browser';
import { signUpAndLogIn } from '../support/dashboard';

// The responder's incident page in a real browser (docs/incident-page.md): everything the sender
// said, the service linked to its own page, times in My profile's zone; the grouped sidebar; and
// the incident list as cards on a 390 px phone.
const suite = dashboardInBrowser({ page: { viewport: { width: 1280, height: 900 } } });
const app = () => suite.app;

/** Saves a screenshot as the other browser tests do, and a copy where the reviewers look (KLAXON_SCREENSHOTS_DIR). */
async function screenshot(page: Page, name: string) {
  await saveScreenshot(page, name);
  const extra = process.env.KLAXON_SCREENSHOTS_DIR;
  if (extra) {
    mkdirSync(extra, { recursive: true });
    copyFileSync(path.join(SCREENSHOTS, `${name}.png`), path.join(extra, `${name}.png`));
  }
}

/** A workspace with a service "Checkout" owned by "Payments" and an alert source on it; the owner signed in. */
async function checkoutWorkspace() {
  const owner = await signUpAndLogIn(app(), suite.stack.orm);
  const team = await createTeam(suite.stack.orm, { organizationId: owner.organizationId, name: 'Payments' });
  const service = await createService(suite.stack.orm, { organizationId: owner.organizationId, teamId: team.id, name: 'Checkout' });
  const source = await createSource(suite.stack.orm, {
    organizationId: owner.organizationId,
    serviceId: service.id,
    name: 'Prometheus',
    ingestBaseUrl: suite.stack.urls.ingest,
  });
  return { owner, service, teamId: team.id, ingestUrl: source.ingest_url };
}

async function send(ingestUrl: string, event: Record<string, unknown>): Promise<string> {
  const res = await fetch(ingestUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
  if (res.status !== 202) throw new Error(`ingestion answered ${res.status}`);
  return ((await res.json()) as { incident_id: string }).incident_id;
}

describe('the incident page in Chromium', () => {
  it('when an alert with a description, dedup key, labels and links arrives, then its page shows them with safe links, times in My profile’s zone, and the service links to a service page; the sidebar is grouped', async () => {
    const { owner, ingestUrl } = await checkoutWorkspace();
    const { page } = suite;
    await logInInBrowser(page, app(), owner);

    // The sidebar, grouped, with Notifications in it.
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const group of ['Respond', 'Configure', 'Insights', 'Admin']) await nav.getByRole('group', { name: group }).waitFor();
    await nav
      .getByRole('group', { name: 'Respond' })
      .getByRole('link', { name: /^Notifications/ })
      .waitFor();
    await nav.getByRole('group', { name: 'Configure' }).getByRole('link', { name: 'Services' }).waitFor();
    await screenshot(page, 'sidebar-grouped');

    // My profile: the time zone.
    await nav.getByRole('link', { name: 'My profile' }).click();
    await page.getByText(/Not set: times are shown in this browser’s zone/).waitFor();
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.click();
    await zone.fill('Asia/Tokyo');
    await page.getByRole('option', { name: 'Asia/Tokyo' }).click();
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Times are shown in Asia/Tokyo, and reports count days in it.').waitFor();

    const id = await send(ingestUrl, {
      title: 'Disk almost full on db-1',
      message: 'db-1 /var/lib/postgresql at 97%\nGraph: https://grafana.example.test/d/disk?var-host=db-1.',
      description: 'Runbook: https://runbooks.example.test/disk <script>alert(1)</script>',
      dedup_key: 'disk-db-1',
      source: 'prometheus',
      severity: 'critical',
      metadata: {
        labels: { host: 'db-1', region: 'eu-west-1', team: 'payments' },
        links: { Silence: 'https://alertmanager.example.test/#/silences/new', Evil: 'javascript:alert(1)' },
        runbook_url: 'https://runbooks.example.test/disk',
        threshold_percent: 95,
      },
    });
    await page.goto(`${app()}/incidents/${id}`);
    await page.getByRole('heading', { name: /Disk almost full on db-1/ }).waitFor();
    const alert = page.getByRole('article', { name: 'Alert Disk almost full on db-1' });
    expect(await alert.getByLabel('Message').innerText()).toBe('db-1 /var/lib/postgresql at 97%\nGraph: https://grafana.example.test/d/disk?var-host=db-1.');
    expect(await alert.getByRole('link', { name: 'https://grafana.example.test/d/disk?var-host=db-1' }).getAttribute('href')).toBe(
      'https://grafana.example.test/d/disk?var-host=db-1',
    );
    await alert.getByText('<script>alert(1)</script>', { exact: false }).waitFor();
    await alert.getByRole('listitem', { name: 'dedup key: disk-db-1' }).waitFor();
    await alert.getByRole('listitem', { name: 'source: prometheus' }).waitFor();
    for (const label of ['host: db-1', 'region: eu-west-1', 'team: payments'])
      await alert.getByRole('list', { name: 'Labels' }).getByRole('listitem', { name: label }).waitFor();
    await alert.getByRole('listitem', { name: 'threshold_percent: 95' }).waitFor();
    expect(await alert.getByRole('link', { name: 'Silence' }).getAttribute('href')).toBe('https://alertmanager.example.test/#/silences/new');
    expect(await alert.getByRole('link', { name: 'runbook_url' }).getAttribute('href')).toBe('https://runbooks.example.test/disk');
    expect(
      await page.evaluate(() => Array.from(document.querySelectorAll('a[href]')).filter((a) => !/^(https?:|\/)/.test(a.getAttribute('href')!)).length),
    ).toBe(0);
    // Relative, with the exact time in Tokyo on hover.
    const opened = page.locator('time').first();
    expect(await opened.innerText()).toMatch(/^(just now|\d+ min ago)$/);
    expect(await opened.getAttribute('title')).toMatch(/GMT\+9$/);
    await screenshot(page, 'incident-page-details');

    // The service's name links to its page: its incidents, policy, sources, chat and maintenance.
    await page.getByRole('link', { name: 'Checkout', exact: true }).click();
    await page.getByRole('heading', { name: 'Checkout', level: 2 }).waitFor();
    await page
      .getByRole('list', { name: 'Incidents of this service' })
      .getByRole('link', { name: /Disk almost full on db-1/ })
      .waitFor();
    await page.getByRole('list', { name: 'Alert sources' }).getByRole('listitem', { name: 'Prometheus' }).waitFor();
    for (const section of ['Escalation policy', 'Maintenance', 'Chat']) await page.getByRole('region', { name: section }).waitFor();
    await screenshot(page, 'service-page');
    // And from the services list.
    await nav.getByRole('link', { name: 'Services' }).click();
    await page.getByRole('table', { name: 'Services' }).getByRole('link', { name: 'Checkout' }).click();
    await page.getByRole('heading', { name: 'Checkout', level: 2 }).waitFor();
  }, 90_000);

  it('when the incident list, the Set up page’s webhooks and readiness are opened on a 390 px phone, then the list is cards with checkboxes and nothing scrolls sideways or is clipped', async () => {
    const { owner, ingestUrl, teamId, service } = await checkoutWorkspace();
    const serviceId = service.id;
    await send(ingestUrl, { title: 'Checkout latency above 2 s on every pod of the eu-west-1 cluster', severity: 'critical' });
    await send(ingestUrl, { title: 'Card payments failing', severity: 'high' });
    const phone = await suite.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      await logInInBrowser(phone, app(), owner);
      const item = phone.getByRole('listitem', { name: /Checkout latency above 2 s/ });
      await item.waitFor();
      await item.getByRole('checkbox', { name: /^Select #/ }).waitFor();
      const box = (await item.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
      await screenshot(phone, 'incident-list-390');

      // A webhook's buttons all on screen (they were clipped in a sideways box before).
      await phone.goto(`${app()}/setup`);
      await phone.getByRole('textbox', { name: 'Webhook name' }).fill('Grafana');
      await phone.getByRole('combobox', { name: 'Service', exact: true }).click();
      await phone.getByRole('option', { name: 'Checkout' }).click();
      await phone.getByRole('button', { name: 'Create webhook' }).click();
      const remove = phone.getByRole('button', { name: 'Delete Grafana' });
      await remove.waitFor();
      await remove.scrollIntoViewIfNeeded();
      const del = (await remove.boundingBox())!;
      expect(del.x).toBeGreaterThanOrEqual(0);
      expect(del.x + del.width).toBeLessThanOrEqual(390);
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
      await screenshot(phone, 'setup-webhooks-390');

      // Readiness: a policy whose only step is a team with nobody in it is a gap; its Why and Fix fit the screen.
      const policy = await createEscalationPolicy(suite.stack.orm, {
        organizationId: owner.organizationId,
        name: 'Payments first',
        steps: [{ delay_seconds: 300, targets: [{ type: 'team', id: teamId }] }],
        repeat: 0,
      });
      await updateService(suite.stack.orm, { organizationId: owner.organizationId, id: serviceId, patch: { escalationPolicyId: policy.id } });
      await phone.goto(`${app()}/readiness`);
      const gaps = phone.getByRole('table', { name: 'Readiness gaps' });
      await gaps.waitFor();
      const fix = gaps.getByRole('link').first();
      await fix.scrollIntoViewIfNeeded();
      const fixBox = (await fix.boundingBox())!;
      expect(fixBox.x + fixBox.width).toBeLessThanOrEqual(390);
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
      await screenshot(phone, 'readiness-390');

      // Escalation policies and members: their row buttons on screen too.
      for (const [path, button] of [
        ['/escalation-policies', 'Edit Payments first'],
        ['/members', `Role of ${owner.email}`],
      ]) {
        await phone.goto(`${app()}${path}`);
        const control = phone.getByRole(path === '/members' ? 'combobox' : 'button', { name: button });
        await control.waitFor();
        const at = (await control.boundingBox())!;
        expect({ path, right: at.x + at.width <= 390 }).toEqual({ path, right: true });
        expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
      }
    } finally {
      await phone.close();
    }
  }, 90_000);
  it('when a responder notes, acknowledges, snoozes and merges from the incident page, and bulk-acknowledges from the list, then the real server records each and the page shows it', async () => {
    const { owner, ingestUrl } = await checkoutWorkspace();
    const { page } = suite;
    await logInInBrowser(page, app(), owner);
    const main = await send(ingestUrl, { title: 'Checkout 5xx above 2 %', dedup_key: 'checkout-5xx', severity: 'critical' });
    const other = await send(ingestUrl, { title: 'Checkout pods restarting', dedup_key: 'checkout-restarts', severity: 'high' });
    await page.goto(`${app()}/incidents/${main}`);
    await page.getByRole('heading', { name: /Checkout 5xx above 2 %/ }).waitFor();

    await page.getByRole('textbox', { name: 'Note' }).fill('Rolled back deploy 4521, see https://ci.example.test/4521');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('link', { name: 'https://ci.example.test/4521' }).waitFor();

    await page.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await page.getByRole('button', { name: 'Snooze', exact: true }).click();
    await page
      .getByText(/Snoozed/i)
      .first()
      .waitFor();

    await page.getByRole('button', { name: 'Merge incidents' }).click();
    await page.getByLabel('Incidents to merge').first().click();
    await page.getByRole('option', { name: /Checkout pods restarting/ }).click();
    // Close the picker's dropdown (a click on the dialog's text), then merge.
    await page.getByText(/Their alerts move into #/).click();
    await page.getByRole('button', { name: /^Merge 1 into #/ }).click();
    await page.getByRole('article', { name: 'Alert Checkout pods restarting' }).waitFor();

    // What the page showed is what the server holds.
    const detail = await (await page.request.get(`${app()}/api/incidents/${main}`)).json();
    const types = (detail.data.timeline as Array<{ type: string }>).map((t) => t.type);
    expect(types).toEqual(expect.arrayContaining(['note', 'snooze', 'merged']));
    expect(detail.data.status).toBe('ACKNOWLEDGED');
    const merged = await (await page.request.get(`${app()}/api/incidents/${other}`)).json();
    expect(merged.data.status).toBe('RESOLVED');

    // Bulk from the list: two fresh incidents acknowledged at once, each result listed.
    const a = await send(ingestUrl, { title: 'Queue depth rising', dedup_key: 'queue', severity: 'high' });
    const b = await send(ingestUrl, { title: 'Cache hit rate falling', dedup_key: 'cache', severity: 'high' });
    await page.goto(`${app()}/incidents`);
    for (const title of ['Queue depth rising', 'Cache hit rate falling'])
      await page
        .getByRole('listitem', { name: new RegExp(title) })
        .getByRole('checkbox')
        .check();
    await page.getByRole('button', { name: 'Acknowledge selected' }).click();
    await page.getByText('Acknowledge: 2 of 2 done').waitFor();
    for (const id of [a, b]) expect((await (await page.request.get(`${app()}/api/incidents/${id}`)).json()).data.status).toBe('ACKNOWLEDGED');
  }, 120_000);
});
