import { knexOf } from '../../../src/db/knex';
import { addUser } from '../../../src/services/workspace';
import { startOpsgenieApi, type OpsgenieApiFake } from '../../../src/integrations/opsgenie/testing/wire-fake';
import { startPagerDutyApi, type PagerDutyApiFake } from '../../../src/integrations/pagerduty/testing/wire-fake';
import { dashboard, workspaceWithRoles } from '../../support/dashboard';
import { request } from '../../support/http';
import { counts, memberEmails, tablesHolding, workspaceRows } from '../../support/importers';
import { startTestStack, type TestStack } from '../../support/stack';

// Settings → Import's routes: POST /api/import/pagerduty and /api/import/opsgenie, for Billing
// Owners and Account Admins, a dry run first, then the import; the report is the CLI's.

let stack: TestStack;
let pd: PagerDutyApiFake;
let og: OpsgenieApiFake;
beforeAll(async () => {
  // The fakes listen on 127.0.0.1: ALLOW_PRIVATE_TARGETS lets the SSRF guard reach them.
  stack = await startTestStack({ worker: false, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
  [pd, og] = await Promise.all([startPagerDutyApi(), startOpsgenieApi()]);
});
afterAll(async () => {
  await Promise.all([pd?.stop(), og?.stop()]);
  await stack?.stop();
});

/** A workspace with a member per role, the fixtures' people in it (those of `domain`), on a plan without user or source limits. */
async function workspace(domain = pd.account.domain!) {
  const ws = await workspaceWithRoles(stack.urls.app, stack.orm);
  await knexOf(stack.orm)('organizations').where({ id: ws.organizationId }).update({ plan: 'BUSINESS' });
  for (const email of memberEmails(domain))
    await addUser(stack.orm, { organizationId: ws.organizationId, email, password: 'a long password', role: 'MEMBER', verified: true });
  return ws;
}

describe('POST /api/import/{system}', () => {
  it('when a Billing Owner previews and then imports PagerDuty, then the preview writes nothing and the import creates what it planned', async () => {
    const ws = await workspace();
    const body = { api_token: pd.token, api_url: pd.url };
    const before = await workspaceRows(stack.orm, ws.organizationId);
    const preview = await dashboard(stack.urls.app, 'POST', '/import/pagerduty', { session: ws.owner, body: { ...body, dry_run: true } });
    expect(preview.status).toBe(200);
    expect(preview.body.success).toBe(true);
    expect(preview.body.data.created).toEqual(
      counts({ user: 1, contact_method: 13, notification_rule: 10, team: 2, schedule: 2, escalation_policy: 2, service: 3, source: 2 }),
    );
    expect(await workspaceRows(stack.orm, ws.organizationId)).toEqual(before);

    const done = await dashboard(stack.urls.app, 'POST', '/import/pagerduty', { session: ws.owner, body: { ...body, dry_run: false } });
    expect(done.status).toBe(200);
    expect(done.body.data.created).toEqual(preview.body.data.created);
    expect(done.body.data.skipped).toEqual(preview.body.data.skipped);
    const audit = await knexOf(stack.orm)('audit_log').where({ organization_id: ws.organizationId, action: 'import.run' });
    expect(audit).toEqual([expect.objectContaining({ actor_user_id: ws.owner.userId, actor_kind: 'user' })]);
  });

  it('when an Account Admin previews Opsgenie, then the plan comes back; a Team Manager and a Member are refused', async () => {
    const ws = await workspace(og.account.domain);
    const body = { api_key: og.apiKey, api_url: og.url, dry_run: true };
    const admin = await dashboard(stack.urls.app, 'POST', '/import/opsgenie', { session: ws.as.ACCOUNT_ADMIN, body });
    expect(admin.status).toBe(200);
    expect(admin.body.data.created.schedule).toBe(3);
    for (const role of ['TEAM_MANAGER', 'MEMBER'] as const) {
      const refused = await dashboard(stack.urls.app, 'POST', '/import/opsgenie', { session: ws.as[role], body });
      expect({ role, status: refused.status, code: refused.body.code }).toEqual({ role, status: 403, code: 'forbidden' });
    }
  });

  it('when an unverified Billing Owner imports for real, then 403 email_unverified (it invites people); a preview is allowed', async () => {
    const ws = await workspace();
    await knexOf(stack.orm)('users').where({ id: ws.owner.userId }).update({ verified: false });
    const body = { api_token: pd.token, api_url: pd.url };
    const real = await dashboard(stack.urls.app, 'POST', '/import/pagerduty', { session: ws.owner, body: { ...body, dry_run: false } });
    expect({ status: real.status, code: real.body.code }).toEqual({ status: 403, code: 'email_unverified' });
    const preview = await dashboard(stack.urls.app, 'POST', '/import/pagerduty', { session: ws.owner, body: { ...body, dry_run: true } });
    expect(preview.status).toBe(200);
    expect(await knexOf(stack.orm)('import_mappings').where({ organization_id: ws.organizationId }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('when the token is refused, then 400 source_token_refused, and the token is in no answer, log line or table', async () => {
    const ws = await workspace();
    const token = 'u+refused-token-kept-out-of-everything';
    const res = await dashboard(stack.urls.app, 'POST', '/import/pagerduty', {
      session: ws.owner,
      body: { api_token: token, api_url: pd.url, dry_run: false },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      code: 'source_token_refused',
      error: expect.stringMatching(/^PagerDuty refused the API credential \(401\)/),
    });
    expect(JSON.stringify(res.body)).not.toContain(token);
    // The accepted token of the first test too.
    for (const secret of [token, pd.token, og.apiKey]) {
      expect(stack.logs.lines.filter((l) => l.includes(secret))).toEqual([]);
      expect(await tablesHolding(stack.orm, secret)).toEqual([]);
    }
  });

  it('when the source keeps failing, then 502 with the source’s name; when the body is wrong, then 400 naming the field', async () => {
    const ws = await workspace();
    pd.failing = { status: 503 };
    try {
      const res = await dashboard(stack.urls.app, 'POST', '/import/pagerduty', {
        session: ws.owner,
        body: { api_token: pd.token, api_url: pd.url, dry_run: true },
      });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'source_unavailable', error: expect.stringMatching(/^could not read PagerDuty at /) });
    } finally {
      pd.failing = undefined;
    }
    const extra = await dashboard(stack.urls.app, 'POST', '/import/pagerduty', { session: ws.owner, body: { api_token: pd.token, dry_run: true, org: 'x' } });
    expect(extra.status).toBe(400);
    const long = await dashboard(stack.urls.app, 'POST', '/import/opsgenie', { session: ws.owner, body: { api_key: 'k'.repeat(513), dry_run: true } });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/api_key/);
    const noDryRun = await dashboard(stack.urls.app, 'POST', '/import/opsgenie', { session: ws.owner, body: { api_key: og.apiKey } });
    expect(noDryRun.status).toBe(400);
    expect(noDryRun.body.error).toMatch(/dry_run/);
  });

  it('when the OpenAPI document is read, then both routes are described with the report', async () => {
    const doc = (await request('GET', `${stack.urls.app}/api/openapi.json`)).body;
    for (const p of ['/api/import/pagerduty', '/api/import/opsgenie']) {
      expect(doc.paths[p].post.responses['200']).toBeDefined();
      expect(doc.paths[p].post.responses['502']).toBeDefined();
    }
    expect(Object.keys(doc.components.schemas.ImportReport.properties).sort()).toEqual(['created', 'mapping', 'skipped', 'updated']);
  });
});
