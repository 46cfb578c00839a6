import { knexOf } from '../../src/db/knex';
import { setPlan } from '../../src/services/workspace';
import { dashboardInBrowser, logInInBrowser, saveScreenshot } from '../support/browser';
import { signUpAndLogIn } from '../support/dashboard';

// The Single sign-on page in Chromium (docs/sso.md, "Setting it up"): "Test the connection" on
// the empty form names the fields at the fields (it was a 500 "internal error"); the SCIM token
// card creates a token after a step-up, shows it once, then only its prefix, and revokes it; on a
// plan without SSO the page explains the plan under its title.
const suite = dashboardInBrowser();

async function ownerOn(plan: 'BUSINESS' | 'FREE') {
  const owner = await signUpAndLogIn(suite.app, suite.stack.orm);
  await setPlan(suite.stack.orm, owner.organizationId, plan);
  await logInInBrowser(suite.page, suite.app, owner);
  await suite.page.goto(`${suite.app}/settings/sso`);
  return owner;
}

describe('the Single sign-on page', () => {
  it('when "Test the connection" is clicked on the empty form, then each missing field says so at the field, and no error banner or 500', async () => {
    await ownerOn('BUSINESS');
    const answers: number[] = [];
    suite.page.on('response', (res) => res.url().endsWith('/api/sso/test') && answers.push(res.status()));
    await suite.page.getByRole('button', { name: 'Test the connection' }).click();
    await suite.page.getByText('issuer: must be an https:// URL', { exact: true }).waitFor();
    await suite.page.getByText('client_id: is required', { exact: true }).waitFor();
    expect(answers).toEqual([400]);
    expect(await suite.page.getByText(/internal error|Test failed/).count()).toBe(0);
    expect(await suite.page.getByRole('textbox', { name: 'Issuer' }).getAttribute('aria-invalid')).toBe('true');
    await saveScreenshot(suite.page, 'sso-test-field-errors');
  });

  it('when a SCIM token is created, then the password is asked, the token is shown once, then only its prefix; Revoke removes it', async () => {
    const owner = await ownerOn('BUSINESS');
    const card = suite.page.getByRole('region', { name: 'SCIM provisioning' });
    await card.getByText(/No SCIM token yet/).waitFor();
    await card.getByRole('button', { name: 'Create a SCIM token' }).click();
    const confirm = suite.page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByRole('textbox', { name: 'Password' }).fill(owner.password);
    await confirm.getByRole('button', { name: 'Confirm', exact: true }).click();
    const shown = suite.page.getByRole('dialog', { name: 'Your SCIM token' });
    const token = (await shown.getByLabel('The SCIM token').innerText()).trim();
    expect(token).toMatch(/^klxscim_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });
    await card.getByText(token.slice(0, 12), { exact: true }).waitFor();
    expect(await suite.page.locator('body').innerText()).not.toContain(token);
    await saveScreenshot(suite.page, 'sso-scim-card');

    // The token works at the SCIM endpoint until revoked.
    const scim = () => fetch(`${suite.app}/scim/v2/Users`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await scim()).status).toBe(200);
    await card.getByRole('button', { name: 'Revoke the SCIM token' }).click();
    await suite.page.getByRole('dialog', { name: 'Revoke the SCIM token?' }).getByRole('button', { name: 'Revoke' }).click();
    await card.getByText(/No SCIM token yet/).waitFor();
    expect((await scim()).status).toBe(401);
    expect(await knexOf(suite.stack.orm)('scim_tokens').where({ organization_id: owner.organizationId }).first()).toBeUndefined();
  });

  it('when the workspace is on FREE, then the page keeps its title and explains the plan in plain words', async () => {
    await ownerOn('FREE');
    await suite.page.getByRole('heading', { name: 'Single sign-on', exact: true }).waitFor();
    await suite.page.getByText('Single sign-on comes with the Business plan').waitFor();
    await suite.page.getByText(/This workspace is on the Free plan/).waitFor();
    expect(await suite.page.getByText('BUSINESS does').count()).toBe(0);
    expect(await suite.page.getByRole('textbox', { name: 'Issuer' }).count()).toBe(0);
    await saveScreenshot(suite.page, 'sso-free-plan');
  });
});
