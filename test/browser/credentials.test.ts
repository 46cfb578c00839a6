import { knexOf } from '../../src/db/knex';
import { setPlan } from '../../src/services/workspace';
import { dashboardInBrowser, logInInBrowser, saveScreenshot, sidewaysOverflow } from '../support/browser';
import { memberSession, signUpAndLogIn } from '../support/dashboard';
import { request } from '../support/http';

// Workspace administration in a real browser against the real stack: an API token made behind
// a step-up works on the customer API until it is revoked; a member's role is changed.

const suite = dashboardInBrowser({ page: { viewport: { width: 1280, height: 800 } } });

const app = () => suite.app;

describe('API tokens in Chromium', () => {
  it('when an admin creates a token, then they confirm their password, see the plaintext once, it works on /api/v1, and once revoked it is refused', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    await setPlan(suite.stack.orm, owner.organizationId, 'PRO');
    await logInInBrowser(suite.page, app(), owner);

    await suite.page.getByRole('link', { name: 'API tokens and keys' }).click();
    await suite.page.getByRole('heading', { name: 'API tokens and keys' }).waitFor();
    await suite.page.getByText('No API tokens yet').waitFor();
    await suite.page.getByRole('textbox', { name: 'Token name' }).fill('ci-reader');
    await suite.page.getByRole('button', { name: 'Create token' }).click();

    // A password login is not a step-up: the server asks, the dashboard asks the person.
    const confirm = suite.page.getByRole('dialog', { name: 'Confirm it is you' });
    await confirm.getByRole('textbox', { name: 'Password', exact: true }).fill(owner.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();

    const shown = suite.page.getByRole('dialog', { name: 'Your new API token' });
    await shown.getByText('will not be shown again').waitFor();
    const token = (await shown.getByLabel('The token').textContent())!.trim();
    expect(token).toMatch(/^klx_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole('button', { name: 'Copy the token' }).waitFor();

    const incidents = `${app()}/api/v1/organizations/${owner.organizationId}/incidents`;
    expect((await request('GET', incidents, { token })).status).toBe(200);

    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await suite.page.content()).not.toContain(token);
    const row = suite.page.getByRole('row', { name: /ci-reader/ });
    await row.getByText('active').waitFor();
    await saveScreenshot(suite.page, 'api-tokens');

    await suite.page.getByRole('button', { name: 'Revoke token ci-reader' }).click();
    const revoke = suite.page.getByRole('dialog', { name: 'Revoke token ci-reader?' });
    await revoke.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.getByText('revoked').waitFor();
    expect((await request('GET', incidents, { token })).status).toBe(401);
  }, 90_000);
});

describe('members in Chromium', () => {
  it('when the Billing Owner changes a member’s role with the select, then the member has the new role and the page says when it applies', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const member = await memberSession(app(), suite.stack.orm, owner.organizationId, 'MEMBER');
    await logInInBrowser(suite.page, app(), owner);

    await suite.page.getByRole('link', { name: 'Members' }).click();
    await suite.page.getByRole('heading', { name: 'Members', exact: true }).waitFor();
    await suite.page.getByRole('combobox', { name: `Role of ${member.email}` }).click();
    await suite.page.getByRole('option', { name: 'Team Manager' }).click();
    await suite.page.getByText(`${member.email} is now TEAM_MANAGER`).waitFor();
    await suite.page.getByText('FREE', { exact: true }).waitFor();
    await saveScreenshot(suite.page, 'members');

    const row = await knexOf(suite.stack.orm)('memberships').where({ organization_id: owner.organizationId, user_id: member.userId }).first();
    expect(row.role).toBe('TEAM_MANAGER');
    // Their sessions ended: the new role applies at their next login.
    expect((await request('GET', `${app()}/api/auth/session`, { headers: { Cookie: `__Host-klaxon_session=${member.cookie}` } })).status).toBe(401);
  }, 60_000);

  it('when the members, security and credentials pages are opened on a 390 px phone, then nothing scrolls sideways', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    await memberSession(app(), suite.stack.orm, owner.organizationId, 'ACCOUNT_ADMIN');
    const phone = await suite.browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      await logInInBrowser(phone, app(), owner);
      for (const [url, ready] of [
        ['/members', 'Seats'],
        ['/credentials', 'No API keys yet'],
        ['/security', 'Set up two-factor'],
      ] as const) {
        await phone.goto(`${app()}${url}`);
        await phone.getByText(ready).first().waitFor();
        expect([url, Math.max(0, await sidewaysOverflow(phone))]).toEqual([url, 0]);
      }
    } finally {
      await phone.close();
    }
  }, 60_000);
});
