import { knexOf } from '../../src/db/knex';
import { addUser } from '../../src/services/workspace';
import { startPagerDutyApi, type PagerDutyApiFake } from '../../src/integrations/pagerduty/testing/wire-fake';
import { dashboardInBrowser, logInInBrowser, saveScreenshot } from '../support/browser';
import { signUpAndLogIn } from '../support/dashboard';
import { memberEmails } from '../support/importers';

// An owner moves from PagerDuty in a real browser: Settings → Import, the token and the API's
// address (a wire fake on 127.0.0.1, which ALLOW_PRIVATE_TARGETS lets the SSRF guard reach),
// Preview shows the plan, Import runs it.

const suite = dashboardInBrowser({ stack: { worker: false, env: { ALLOW_PRIVATE_TARGETS: 'true' } } });
let pd: PagerDutyApiFake;
beforeAll(async () => {
  pd = await startPagerDutyApi();
});
afterAll(() => pd?.stop());

describe('Settings → Import in Chromium', () => {
  it('when an owner previews a PagerDuty account and imports it, then the plan is shown first and the import creates it', async () => {
    const owner = await signUpAndLogIn(suite.app, suite.stack.orm);
    const knex = knexOf(suite.stack.orm);
    await knex('organizations').where({ id: owner.organizationId }).update({ plan: 'BUSINESS' });
    for (const email of memberEmails(pd.account.domain!))
      await addUser(suite.stack.orm, { organizationId: owner.organizationId, email, password: 'a long password', role: 'MEMBER', verified: true });
    const schedules = () => knex('schedules').where({ organization_id: owner.organizationId }).count({ n: '*' });
    await logInInBrowser(suite.page, suite.app, owner);

    await suite.page.getByRole('link', { name: 'Import' }).click();
    await suite.page.getByRole('heading', { name: 'Import' }).waitFor();
    const form = suite.page.getByRole('form', { name: 'Import from' });
    await form.getByLabel(/^API token/).fill(pd.token);
    await form.getByRole('textbox', { name: /^API URL/ }).fill(pd.url);
    await form.getByRole('button', { name: 'Preview' }).click();

    await suite.page.getByText('The plan (nothing written yet)').waitFor();
    const perKind = suite.page.getByRole('table', { name: 'Per kind' });
    await perKind.getByRole('row', { name: /Schedules 2 0/ }).waitFor();
    await suite.page
      .getByRole('table', { name: 'Skipped' })
      .getByText(/turn length of 5400 s is not a whole number of hours/)
      .waitFor();
    await suite.page
      .getByRole('table', { name: 'Mapping' })
      .getByRole('row', { name: /Platform Primary PSCH001 new/ })
      .waitFor();
    // Frank is new: he comes as a member with the plan; Bob's numbers and rules come with him.
    const people = suite.page.getByRole('table', { name: 'People' });
    await people.getByRole('row', { name: /^Frank Fisher PFRANK0 new member/ }).waitFor();
    await people.getByRole('row', { name: /^Bob Baker PB0B000 member .*Mobile \(\+12025550102\).*after 3 min/ }).waitFor();
    expect(Number((await schedules())[0].n)).toBe(0);
    await saveScreenshot(suite.page, 'import-plan');

    await form.getByRole('button', { name: 'Import' }).click();
    await suite.page.getByText('Imported', { exact: true }).waitFor();
    await perKind.getByRole('row', { name: /Schedules 2 0/ }).waitFor();
    expect(Number((await schedules())[0].n)).toBe(2);
    await suite.page.getByRole('link', { name: 'Check readiness' }).click();
    await suite.page.getByRole('heading', { name: 'Readiness' }).waitFor();
    // The token never reaches the page's text after it was sent.
    expect(await suite.page.locator('body').innerText()).not.toContain(pd.token);
  });
});
