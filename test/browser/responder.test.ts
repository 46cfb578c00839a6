import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { knexOf } from '../../src/db/knex';
import { createSource } from '../../src/services/ingest/sources';
import { createService, createTeam } from '../../src/services/workspace';
import { ensureDashboardBuilt, launchChromium, SCREENSHOTS } from '../support/browser';
import { newAccount, signUpAndLogIn } from '../support/dashboard';
import { trigger } from '../support/paging';
import { startTestStack, type TestStack } from '../support/stack';

// The responder's path in a real browser against the real stack: sign up, verify from the
// emailed link, log in, see an alert appear live, open it, acknowledge it.
let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const uiDistDir = ensureDashboardBuilt();
  stack = await startTestStack({ uiDistDir, devInbox: true });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});
beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});
afterEach(() => page?.close());

const app = () => stack.urls.app;

describe('the dashboard in Chromium', () => {
  it('when a newcomer signs up, clicks the verification link in the dev inbox and logs in, then an alert appears in the list without reloading, and Acknowledge acknowledges it', async () => {
    const account = newAccount();
    await page.goto(`${app()}/signup`);
    await page.getByRole('textbox', { name: 'Your name' }).fill(account.name);
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
    await page.getByRole('textbox', { name: 'Workspace name' }).fill(account.organization_name);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Check your email').waitFor();

    // As a newcomer without an email provider: the dev inbox holds the link; click it.
    await page.getByRole('link', { name: 'dev inbox' }).click();
    const mail = page.getByLabel(`email to ${account.email}`);
    await mail.waitFor();
    await mail.getByRole('link', { name: /\/verify\?token=/ }).click();
    await page.getByText('Email verified').waitFor();

    await page.goto(`${app()}/login`);
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Incidents' }).waitFor();
    await page.getByText('No incidents here').waitFor();

    // Day one, in the Set up page: a team, a service, a webhook; then a test notification.
    await page.getByRole('link', { name: 'Set up' }).click();
    await page.getByRole('textbox', { name: 'Team name' }).fill('Ops');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.getByRole('form', { name: 'New team' }).getByText('Ops', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Service name' }).fill('Checkout');
    await page.getByRole('combobox', { name: 'Owning team' }).click();
    await page.getByRole('option', { name: 'Ops' }).click();
    await page.getByRole('button', { name: 'Create service' }).click();
    await page.getByRole('form', { name: 'New service' }).getByText('Checkout', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Webhook name' }).fill('Prometheus');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('button', { name: 'Copy the ingestion URL of Prometheus' }).waitFor();
    await page.getByRole('button', { name: 'Send a test notification for Prometheus' }).click();
    await page.getByText(/EMAIL: sent to /).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'set-up.png'), fullPage: true });

    const db = knexOf(stack.orm);
    const listed = await page.evaluate(async () => (await (await fetch('/api/webhooks')).json()) as { webhooks: Array<{ webhook_url: string }> });
    await page.getByRole('link', { name: 'Incidents' }).click();
    await page.getByText('No incidents here').waitFor();
    const source = { ingest_url: listed.webhooks[0].webhook_url };
    const id = await trigger(source.ingest_url, 'Checkout is down');

    // No reload: the event stream brings it in.
    const row = page.getByRole('listitem', { name: '#1 Checkout is down' });
    await row.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'incident-list.png'), fullPage: true });
    await row.click();
    await page.getByRole('heading', { name: '#1 Checkout is down' }).waitFor();
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByText('ACKNOWLEDGED', { exact: true }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'incident-page.png'), fullPage: true });
    expect((await db('incidents').where({ id }).first()).status).toBe('ACKNOWLEDGED');
    // Once acknowledged, the buttons are the moves the state allows.
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(1);
  }, 90_000);

  it('when the incident list and an incident page are opened on a 390 px phone, then nothing scrolls sideways', async () => {
    const owner = await signUpAndLogIn(stack.urls.app, stack.orm);
    const team = await createTeam(stack.orm, { organizationId: owner.organizationId, name: 'Ops' });
    const service = await createService(stack.orm, { organizationId: owner.organizationId, teamId: team.id, name: 'Checkout' });
    const source = await createSource(stack.orm, { organizationId: owner.organizationId, serviceId: service.id, name: 'alerts', ingestBaseUrl: stack.urls.ingest });
    const id = await trigger(source.ingest_url, 'A very long alert title that a phone screen has to wrap instead of scrolling sideways: disk /var/lib/postgresql/data is 97% full on db-primary-01.eu-west-1');
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      await phone.goto(`${app()}/login`);
      await phone.getByRole('textbox', { name: 'Email', exact: true }).fill(owner.email);
      await phone.getByRole('textbox', { name: 'Password', exact: true }).fill(owner.password);
      await phone.getByRole('button', { name: 'Log in' }).click();
      await phone.getByRole('heading', { name: 'Incidents' }).waitFor();
      // Runs in the page: `document` there, not in this (DOM-less) test's types.
      const overflow = () => phone.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;
      await phone.goto(`${app()}/`);
      await phone.getByRole('listitem').first().waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await phone.goto(`${app()}/incidents/${id}`);
      await phone.getByRole('button', { name: 'Acknowledge' }).waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await phone.screenshot({ path: path.join(SCREENSHOTS, 'incident-page-390.png'), fullPage: true });
    } finally {
      await phone.close();
    }
  }, 60_000);
});
