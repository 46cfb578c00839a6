import type { Locator, Page } from 'playwright-core';
import { knexOf } from '../../src/db/knex';
import { createTeam } from '../../src/services/workspace';
import { dashboardInBrowser, logInInBrowser, saveScreenshot, sidewaysOverflow } from '../support/browser';
import { dashboard, signUpAndLogIn } from '../support/dashboard';
import { phoneNumber } from '../support/paging';
import { waitFor } from '../support/wait';

// Paging set-up in a real browser against the real stack: an admin's phone number, verified with
// the texted code; a notification rule; an escalation policy created, edited and listed.

const suite = dashboardInBrowser({ stack: { devInbox: true } });

const app = () => suite.app;

/** The code texted to a number: the SMS channel has no provider here, so the dev inbox holds the text. */
const codeTextedTo = (to: string) =>
  waitFor(
    async () => {
      const text = await knexOf(suite.stack.orm)('dev_deliveries').select('body').where({ channel: 'sms', to }).orderBy('created_at', 'desc').first();
      return (text?.body as string | undefined)?.match(/code is (\d{6})\b/)?.[1];
    },
    15_000,
    `a code texted to ${to}`,
  );

/** Picks an option of a Mantine select or multi-select by its visible name. */
async function choose(scope: Page | Locator, combobox: string | RegExp, option: string | RegExp) {
  await scope.getByRole('combobox', { name: combobox }).click();
  await suite.page.getByRole('option', { name: option }).click();
}

describe('paging set-up in Chromium', () => {
  it('when an admin adds and verifies a phone number, adds a rule, and creates and edits a two-step policy, then each shows as saved', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const team = await createTeam(suite.stack.orm, { organizationId: owner.organizationId, name: 'Ops' });
    const number = phoneNumber();
    const sms = `SMS ${number} (work phone)`;
    await logInInBrowser(suite.page, app(), owner);

    // My profile: the number starts unverified; the texted code verifies it.
    await suite.page.getByRole('link', { name: 'My profile' }).click();
    await suite.page.getByRole('heading', { name: 'My profile' }).waitFor();
    await suite.page.getByRole('textbox', { name: /^Phone number/ }).fill(number.replace(/^\+1555/, '+1 555 '));
    await suite.page.getByRole('textbox', { name: /^Label/ }).fill('work phone');
    await suite.page.getByRole('button', { name: 'Add contact method' }).click();
    const method = suite.page.getByRole('listitem', { name: sms });
    await method.getByText('Unverified', { exact: true }).waitFor();
    const verify = suite.page.getByRole('form', { name: `Verify ${number}` });
    await verify.getByRole('textbox', { name: '6-digit code' }).fill(await codeTextedTo(number));
    await verify.getByRole('button', { name: 'Verify' }).click();
    await method.getByText('Verified', { exact: true }).waitFor();
    expect(await verify.count()).toBe(0);

    // A rule: text me two minutes after a page starts.
    const ruleForm = suite.page.getByRole('form', { name: 'Add a notification rule' });
    await choose(ruleForm, 'Contact method', sms);
    await ruleForm.getByRole('textbox', { name: /^Delay \(minutes\)/ }).fill('2');
    await ruleForm.getByRole('button', { name: 'Add rule' }).click();
    await suite.page.getByRole('listitem', { name: `After 2 min: ${sms}` }).waitFor();

    // A policy: me first, then the team ten minutes later.
    await suite.page.getByRole('link', { name: 'Escalation policies' }).click();
    // Sign-up's own policy is there already: it pages the workspace's team at once.
    await suite.page
      .getByRole('row', { name: 'Default' })
      .getByText(/^team /)
      .waitFor();
    await suite.page.getByRole('button', { name: 'New policy' }).click();
    const editor = suite.page.getByRole('form', { name: 'New escalation policy' });
    await editor.getByRole('textbox', { name: /^Name/ }).fill('Checkout');
    await choose(editor.getByRole('group', { name: 'Step 1' }), /^Targets/, `Ada Owner (${owner.email})`);
    await editor
      .getByRole('group', { name: 'Step 1' })
      .getByRole('textbox', { name: /^Delay \(minutes\)/ })
      .fill('5');
    await editor.getByRole('button', { name: 'Add step' }).click();
    await choose(editor.getByRole('group', { name: 'Step 2' }), /^Targets/, 'Ops');
    await editor
      .getByRole('group', { name: 'Step 2' })
      .getByRole('textbox', { name: /^Delay \(minutes\)/ })
      .fill('10');
    await editor.getByRole('textbox', { name: /^Acknowledgement timeout/ }).fill('30');
    await editor.getByRole('button', { name: 'Create policy' }).click();
    const row = suite.page.getByRole('row', { name: 'Checkout' });
    await row.getByText('Ada Owner → after 5 min → team Ops').waitFor();

    // Edit: rename, wait longer before the team, run the list once more.
    await row.getByRole('button', { name: 'Edit Checkout' }).click();
    const edit = suite.page.getByRole('form', { name: 'Edit Checkout' });
    await edit.getByRole('textbox', { name: /^Name/ }).fill('Checkout payments');
    await edit
      .getByRole('group', { name: 'Step 1' })
      .getByRole('textbox', { name: /^Delay \(minutes\)/ })
      .fill('7.5');
    await choose(edit, /^Repeat/, '1');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const edited = suite.page.getByRole('row', { name: 'Checkout payments' });
    await edited.getByText('1 more time(s)').waitFor();
    await edited.getByText('Ada Owner → after 7 min 30 s → team Ops').waitFor();
    await saveScreenshot(suite.page, 'escalation-policy');

    // What the server holds is what the page showed.
    const policies = (await dashboard(app(), 'GET', '/escalation-policies', { session: owner })).body.data;
    expect(policies.filter((p: { name: string }) => p.name !== 'Default')).toEqual([
      expect.objectContaining({
        name: 'Checkout payments',
        repeat: 1,
        ack_timeout_seconds: 1800,
        steps: [
          { delay_seconds: 450, targets: [{ type: 'user', id: owner.userId }] },
          { delay_seconds: 600, targets: [{ type: 'team', id: team.id }] },
        ],
      }),
    ]);
    const rules = (await dashboard(app(), 'GET', '/notification-rules', { session: owner })).body.data;
    // Sign-up's email at once, and the text two minutes in.
    expect(rules).toEqual([expect.objectContaining({ delay_seconds: 0 }), expect.objectContaining({ delay_seconds: 120 })]);
  }, 120_000);

  it('when the profile and policies pages are opened on a 390 px phone, then nothing scrolls sideways', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const phone = await suite.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      await logInInBrowser(phone, app(), owner);
      await phone.goto(`${app()}/profile`);
      await phone.getByRole('button', { name: 'Add contact method' }).waitFor();
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
      await phone.goto(`${app()}/escalation-policies`);
      await phone.getByRole('button', { name: 'New policy' }).click();
      await phone.getByRole('button', { name: 'Add step' }).click();
      expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  }, 60_000);
});
