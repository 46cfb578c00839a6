import type { Locator, Page } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { knexOf } from '../../src/db/knex';
import { createSchedule } from '../../src/services/paging/schedules';
import { addContactMethod } from '../../src/services/paging/contacts';
import { addNotificationRule } from '../../src/services/paging/notification-rules';
import { dashboardInBrowser, logInInBrowser, saveScreenshot } from '../support/browser';
import { readyWorkspaceOf, signUpAndLogIn } from '../support/dashboard';
import { addMember } from '../support/workspace';
import { trigger } from '../support/paging';
import { waitFor } from '../support/wait';
import { createSource } from '../../src/services/ingest/sources';

// Issue 28 in Chromium against the real stack: a draft policy simulated on the last 30 days
// (docs/what-if.md) and the readiness list (docs/readiness.md).

const suite = dashboardInBrowser();
const app = () => suite.app;

async function choose(scope: Page | Locator, combobox: string | RegExp, option: string | RegExp) {
  await scope.getByRole('combobox', { name: combobox }).click();
  await suite.page.getByRole('option', { name: option }).click();
}

/** Three past incidents of the Default service, each acknowledged after 5 minutes, each having emailed the owner. */
async function pastIncidents(organizationId: string, serviceId: string, teamId: string, ownerId: string) {
  const db = knexOf(suite.stack.orm);
  for (let n = 1; n <= 3; n++) {
    const id = randomUUID();
    const openedAt = new Date(Date.now() - (n + 1) * 86_400_000);
    await db('incidents').insert({
      id,
      organization_id: organizationId,
      number: 100 + n,
      service_id: serviceId,
      owning_team_id: teamId,
      title: `Checkout errors ${n}`,
      severity: 'HIGH',
      status: 'RESOLVED',
      alert_count: 1,
      last_seq: 3,
      created_at: openedAt,
      acknowledged_at: new Date(openedAt.getTime() + 300_000),
      resolved_at: new Date(openedAt.getTime() + 900_000),
      updated_at: openedAt,
    });
    await db('notifications').insert({
      id: randomUUID(),
      organization_id: organizationId,
      incident_id: id,
      user_id: ownerId,
      channel: 'email',
      target: 'owner',
      status: 'sent',
      escalation_step: 0,
      created_at: new Date(openedAt.getTime() + 400),
      updated_at: openedAt,
    });
  }
}

describe('confidence before the page, in Chromium', () => {
  it('when an admin simulates a changed policy and opens Readiness, then what would change is highlighted and each gap has its fix', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const ready = await readyWorkspaceOf(suite.stack.orm, owner.organizationId);
    await pastIncidents(owner.organizationId, ready.serviceId, ready.teamId, owner.userId);
    const bob = await addMember(suite.stack.orm, owner.organizationId, 'MEMBER');
    await knexOf(suite.stack.orm)('users').where({ id: bob.id }).update({ name: 'Bob Nights' });
    const email = await addContactMethod(suite.stack.orm, { email: bob.email, type: 'email', address: bob.email });
    await knexOf(suite.stack.orm)('contact_methods').where({ id: email.id }).update({ verified_at: new Date() });
    await addNotificationRule(suite.stack.orm, { email: bob.email, contactMethodId: email.id, delaySeconds: 0 });
    await createSchedule(suite.stack.orm, {
      organizationId: owner.organizationId,
      name: 'Nights',
      timeZone: 'UTC',
      layers: [{ users: [bob.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
    });
    // Carol is on call on Backup and has no way to be reached.
    const carol = await addMember(suite.stack.orm, owner.organizationId, 'MEMBER');
    await knexOf(suite.stack.orm)('users').where({ id: carol.id }).update({ name: 'Carol Backup' });
    await createSchedule(suite.stack.orm, {
      organizationId: owner.organizationId,
      name: 'Backup',
      timeZone: 'UTC',
      layers: [{ users: [carol.email], rotation: { unit: 'weeks', length: 1 }, start: '2026-01-05' }],
    });
    await logInInBrowser(suite.page, app(), owner);

    // The live policy replayed: each incident pages as it did.
    await suite.page.getByRole('link', { name: 'Escalation policies' }).click();
    await suite.page.getByRole('button', { name: 'Edit Default' }).click();
    const editor = suite.page.getByRole('form', { name: 'Edit Default' });
    await editor.getByRole('button', { name: 'Simulate on the last 30 days' }).click();
    const simulation = suite.page.getByRole('region', { name: 'Simulation' });
    await simulation.getByText('3 incidents replayed with this draft and today’s schedules and rules: each would page exactly as it did.').waitFor();

    // A draft that also pages Nights' on-call: every incident would page Bob too.
    await choose(editor.getByRole('group', { name: 'Step 1' }), /^Targets/, /^Nights$/);
    await editor.getByRole('button', { name: 'Simulate on the last 30 days' }).click();
    await simulation.getByText(/3 would page differently/).waitFor();
    const row = simulation.getByRole('row', { name: '#101' });
    expect(await row.getAttribute('data-differs')).toBe('true');
    await row.getByText('differs').waitFor();
    expect(await simulation.getByRole('row', { name: 'Bob Nights' }).getAttribute('data-differs')).toBe('true');
    expect(await simulation.getByRole('row', { name: 'Ada Owner' }).getAttribute('data-differs')).toBe(null);
    await saveScreenshot(suite.page, 'what-if-simulation');

    // Readiness: Carol is on call on Backup with no way to reach her.
    await suite.page.getByRole('link', { name: 'Readiness' }).click();
    const gap = suite.page.getByRole('row', { name: /^Carol Backup is on call on "Backup" and has no verified, working contact method/ }).first();
    await gap.getByText('Cannot be reached').waitFor();
    await gap.getByRole('link', { name: /Ask them to add/ }).click();
    await suite.page.getByRole('heading', { name: 'Backup' }).waitFor();
    // The schedule's page warns about the same gap.
    await suite.page
      .getByRole('alert', { name: 'Readiness warning' })
      .getByText(/This schedule leaves \d+ gaps? in the next 14 days/)
      .waitFor();
    await suite.page.getByRole('link', { name: 'Readiness' }).click();
    await suite.page.getByRole('table', { name: 'Readiness gaps' }).waitFor();
    await saveScreenshot(suite.page, 'readiness');
  }, 120_000);

  it('when an admin starts a maintenance window on a service, then the service shows it and a new incident of it says its paging is held', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const ready = await readyWorkspaceOf(suite.stack.orm, owner.organizationId);
    const source = await createSource(suite.stack.orm, {
      organizationId: owner.organizationId,
      serviceId: ready.serviceId,
      name: 'db',
      ingestBaseUrl: suite.stack.urls.ingest,
    });
    await logInInBrowser(suite.page, app(), owner);

    await suite.page.getByRole('link', { name: 'Set up' }).click();
    await suite.page.getByRole('button', { name: 'Maintenance of Default service' }).click();
    const dialog = suite.page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Database upgrade');
    await dialog.getByRole('textbox', { name: 'Minutes' }).fill('30');
    await dialog.getByRole('button', { name: 'Start now' }).click();
    await dialog.getByRole('table', { name: 'Maintenance windows' }).getByText('Database upgrade').waitFor();
    await suite.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await suite.page.getByText(/^In maintenance until/).waitFor();
    await saveScreenshot(suite.page, 'maintenance-service');

    // An alert during the window opens an incident that pages nobody, and says so.
    const incidentId = await trigger(source.ingest_url, 'Replica lag during the upgrade');
    await waitFor(
      async () =>
        (await knexOf(suite.stack.orm)('timeline_entries')
          .where({ incident_id: incidentId })
          .andWhereLike('message', 'Not paged: maintenance window%')
          .first()) !== undefined,
      20_000,
      'the held paging on the timeline',
    );
    await suite.page.goto(`${app()}/incidents/${incidentId}`);
    const banner = suite.page.getByRole('status', { name: 'Maintenance window' });
    await banner.getByText(/“Database upgrade” until .*: incidents of this service page nobody until then/).waitFor();
    await banner.getByText(/^Paging of this incident is held until/).waitFor();
    expect(await knexOf(suite.stack.orm)('notifications').where({ incident_id: incidentId }).count({ n: '*' })).toEqual([{ n: '0' }]);
    await saveScreenshot(suite.page, 'maintenance-incident');
  }, 120_000);
});
