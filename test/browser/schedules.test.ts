import { DateTime } from 'luxon';
import { knexOf } from '../../src/db/knex';
import { dashboardInBrowser, logInInBrowser, saveScreenshot, sidewaysOverflow } from '../support/browser';
import { memberSession, signUpAndLogIn } from '../support/dashboard';

// An admin sets up on-call in a real browser: a schedule of two people handing over daily, its
// two-week calendar, an override that shows up in it, and the On call page naming who is on now.

// The viewer is in New York, the schedule on Berlin time: the calendar converts between them.
const VIEWER_ZONE = 'America/New_York';

const suite = dashboardInBrowser({ page: { timezoneId: VIEWER_ZONE } });

const app = () => suite.app;
const local = (dt: DateTime) => dt.setZone(VIEWER_ZONE).toFormat("yyyy-MM-dd'T'HH:mm");

describe('schedules in Chromium', () => {
  it('when an admin creates a two-person daily rotation and adds an override, then the calendar shows both and the override, and On call names who is on now', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const bob = await memberSession(app(), suite.stack.orm, owner.organizationId, 'MEMBER');
    await knexOf(suite.stack.orm)('users').where({ id: bob.userId }).update({ name: 'Bob Member' });
    await logInInBrowser(suite.page, app(), owner);

    await suite.page.getByRole('link', { name: 'Schedules' }).click();
    await suite.page.getByText('No schedules yet. Create one below').waitFor();
    const form = suite.page.getByRole('form', { name: 'New schedule' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('Primary');
    // Nobody in the rotation: the server's message is shown next to the rotation picker.
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await form.getByText(/^layers\.0\.users: /).waitFor();

    await form.getByRole('combobox', { name: /^Time zone/ }).fill('Berlin');
    await suite.page.getByRole('option', { name: 'Europe/Berlin' }).click();
    for (const who of ['Ada Owner', 'Bob Member']) {
      await form.getByRole('combobox', { name: /^Add to rotation/ }).click();
      await suite.page.getByRole('option', { name: who }).click();
    }
    expect(await form.getByRole('list', { name: 'Rotation order of layer 1' }).getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringContaining('Ada Owner'),
      expect.stringContaining('Bob Member'),
    ]);
    await form.getByRole('button', { name: 'Create schedule' }).click();

    await suite.page.getByRole('heading', { name: 'Primary' }).waitFor();
    const scheduleUrl = suite.page.url();
    expect(scheduleUrl).toMatch(/\/schedules\/[0-9a-f-]{36}$/);
    const calendar = suite.page.getByRole('list', { name: 'On call, day by day' });
    await calendar.waitFor();
    expect(await calendar.locator(':scope > li').count()).toBe(14);
    // Daily hand-offs at 09:00 Berlin: both take turns within the two weeks, at 03:00 (or 04:00) New York time.
    await calendar
      .getByRole('listitem', { name: /^Ada Owner, / })
      .first()
      .waitFor();
    await calendar
      .getByRole('listitem', { name: /^Bob Member, / })
      .first()
      .waitFor();
    const handoffs = await calendar.getByRole('listitem', { name: /^Ada Owner, / }).evaluateAll((items) => items.map((li) => li.getAttribute('aria-label')));
    expect(handoffs.some((name) => /, 0[34]:00 to 24:00$/.test(name ?? ''))).toBe(true);

    // Bob covers from an hour ago to three hours from now (on the viewer's clock).
    const overrideForm = suite.page.getByRole('form', { name: 'New override' });
    await overrideForm.getByRole('combobox', { name: /^Person/ }).click();
    await suite.page.getByRole('option', { name: 'Bob Member' }).click();
    await overrideForm.getByLabel(/^From/).fill(local(DateTime.now().minus({ hours: 1 })));
    await overrideForm.getByLabel(/^Until/).fill(local(DateTime.now().plus({ hours: 3 })));
    await overrideForm.getByRole('button', { name: 'Add override' }).click();
    await suite.page.getByRole('table', { name: 'Overrides' }).getByText('Bob Member').waitFor();
    await calendar
      .getByRole('listitem', { name: /^Bob Member, .*, override$/ })
      .first()
      .waitFor();
    await suite.page.getByText('On call now: Bob Member').waitFor();
    await saveScreenshot(suite.page, 'schedule-calendar');

    await suite.page.getByRole('link', { name: 'On call' }).click();
    await suite.page.getByRole('heading', { name: 'On call', exact: true }).waitFor();
    const card = suite.page.getByRole('listitem', { name: 'Primary' });
    await card.getByText('On call now: Bob Member').waitFor();
    // The owner is in the rotation but Bob covers now: not on call, with a next shift coming.
    await suite.page.getByText('Not on call').waitFor();
    await suite.page.getByText(/^Your next shift: Primary, /).waitFor();
    await saveScreenshot(suite.page, 'on-call');

    // Bob, signed in, is told he is on call, in which schedule and until when.
    const bobPage = await suite.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, timezoneId: VIEWER_ZONE });
    try {
      await logInInBrowser(bobPage, app(), bob);
      await bobPage.goto(`${app()}/on-call`);
      await bobPage.getByText('On call now', { exact: true }).waitFor();
      await bobPage.getByText(/^Primary until /).waitFor();
      expect(await sidewaysOverflow(bobPage)).toBeLessThanOrEqual(0);
      // On a phone the calendar fits the screen too; a member reads it and gets no editor.
      await bobPage.goto(scheduleUrl);
      await bobPage.getByRole('list', { name: 'On call, day by day' }).waitFor();
      expect(await sidewaysOverflow(bobPage)).toBeLessThanOrEqual(0);
      expect(await bobPage.getByRole('button', { name: 'Add override' }).count()).toBe(0);
      await bobPage.getByText('Only Billing Owners and Account Admins change schedules.').waitFor();
    } finally {
      await bobPage.close();
    }

    // The admin's editor (layers, overrides) fits a phone as well.
    const phone = await suite.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, timezoneId: VIEWER_ZONE });
    try {
      await logInInBrowser(phone, app(), owner);
      await phone.goto(scheduleUrl);
      await phone.getByRole('button', { name: 'Save changes' }).waitFor();
      await phone.getByRole('list', { name: 'On call, day by day' }).waitFor();
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  }, 120_000);

  it('when an admin restricts a layer to a weekly window, then the calendar shows the window and, around it, the gaps where nobody is on call', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    await logInInBrowser(suite.page, app(), owner);
    await suite.page.getByRole('link', { name: 'Schedules' }).click();
    // The schedule is on the viewer's clock (the form's default zone), so the calendar shows the window's own times.
    const form = suite.page.getByRole('form', { name: 'New schedule' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('Wednesdays');
    await form.getByRole('combobox', { name: /^Add to rotation/ }).click();
    await suite.page.getByRole('option', { name: 'Ada Owner' }).click();
    await form.getByRole('button', { name: 'Add a window to layer 1' }).click();
    const window1 = form.getByRole('group', { name: 'Window 1 of layer 1' });
    await window1.getByRole('combobox', { name: 'Repeats' }).click();
    await suite.page.getByRole('option', { name: 'Once a week' }).click();
    await window1.getByRole('combobox', { name: 'On' }).click();
    await suite.page.getByRole('option', { name: 'Wednesday' }).click();
    await window1.getByLabel('From').fill('09:00');
    await window1.getByRole('textbox', { name: 'For hours' }).fill('8');
    await window1.getByText('Wed 09:00 for 8h').waitFor();
    await form.getByRole('button', { name: 'Create schedule' }).click();

    await suite.page.getByRole('heading', { name: 'Wednesdays' }).waitFor();
    const calendar = suite.page.getByRole('list', { name: 'On call, day by day' });
    await calendar
      .getByRole('listitem', { name: /^Ada Owner, / })
      .first()
      .waitFor();
    const entriesOf = (day: string) =>
      calendar
        .getByRole('listitem', { name: day, exact: true })
        .getByRole('list')
        .getByRole('listitem')
        .evaluateAll((items) => items.map((li) => li.getAttribute('aria-label')));
    const days = await calendar.locator(':scope > li').evaluateAll((items) => items.map((li) => li.getAttribute('aria-label') ?? ''));
    const wednesdays = days.filter((d) => d.startsWith('Wed '));
    expect(wednesdays).toHaveLength(2);
    for (const day of wednesdays) {
      expect(await entriesOf(day)).toEqual(['Nobody on call, 00:00 to 09:00', 'Ada Owner, 09:00 to 17:00', 'Nobody on call, 17:00 to 24:00']);
    }
    expect(await entriesOf(days.find((d) => d.startsWith('Thu '))!)).toEqual(['Nobody on call, 00:00 to 24:00']);
    await saveScreenshot(suite.page, 'schedule-restrictions');

    // The editor reads the window back from the server as it was set.
    const editor = suite.page.getByRole('form', { name: 'Edit schedule' });
    await editor.getByRole('group', { name: 'Window 1 of layer 1' }).getByText('Wed 09:00 for 8h').waitFor();

    // The window's fields wrap on a phone instead of widening the page.
    const phone = await suite.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, timezoneId: VIEWER_ZONE });
    try {
      await logInInBrowser(phone, app(), owner);
      await phone.goto(suite.page.url());
      await phone.getByRole('group', { name: 'Window 1 of layer 1' }).waitFor();
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  }, 120_000);
});
