import { knexOf } from '../../../src/db/knex';
import { revokeApiToken } from '../../../src/services/workspace/api-tokens';
import { setPlan, setRole, setVerified } from '../../../src/services/workspace/workspaces';
import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';
import { addMember, seedWorkspace, tokenFor, type SeededWorkspace } from '../../support/workspace';

let stack: TestStack;
let ws: SeededWorkspace;
let other: SeededWorkspace;
let incidentId: string;
let otherIncidentId: string;

const url = (path: string, orgId = ws.organizationId) => `${stack.urls.app}/api/v1/organizations/${orgId}${path}`;

beforeAll(async () => {
  stack = await startTestStack();
  ws = await seedWorkspace(stack.orm);
  other = await seedWorkspace(stack.orm);
  const body = { title: 'auth matrix', severity: 'LOW', owning_team_id: ws.teamId };
  incidentId = (await request('POST', url('/incidents'), { token: ws.tokens.readWrite, body })).body.data.id;
  otherIncidentId = (
    await request('POST', url('/incidents', other.organizationId), {
      token: other.tokens.readWrite,
      body: { ...body, owning_team_id: other.teamId },
    })
  ).body.data.id;
});
afterAll(() => stack.stop());

const READ_ROUTES = ['/incidents', () => `/incidents/${incidentId}`, '/services', () => `/services/${ws.serviceId}`, '/monitors'];
const WRITE_ROUTES = ['/incidents', ...['acknowledge', 'investigate', 'resolve', 'close', 'reopen'].map((op) => () => `/incidents/${incidentId}/${op}`)];
const resolvePath = (p: string | (() => string)) => (typeof p === 'string' ? p : p());
const INVALID_TOKEN_MESSAGE = 'missing, invalid, expired or revoked API token';

describe('401: bad, expired or revoked tokens share one answer', () => {
  it.each([
    ['no Authorization header', {}],
    ['a Basic credential', { Authorization: 'Basic dXNlcjpwYXNz' }],
    ['a malformed bearer token', { Authorization: 'Bearer not-a-token' }],
    ['a well-formed but unknown token', { Authorization: `Bearer klx_${'A'.repeat(43)}` }],
  ])('when the request has %s, then 401 with the common message', async (_name, headers) => {
    const res = await request('GET', url('/incidents'), { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: INVALID_TOKEN_MESSAGE });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('when a token has expired, then it stops working with the same 401', async () => {
    const token = await tokenFor(stack.orm, ws.organizationId, ws.admin.email, 'READ_ONLY');
    expect((await request('GET', url('/incidents'), { token })).status).toBe(200);
    await knexOf(stack.orm)('api_tokens')
      .update({ expires_at: new Date(Date.now() - 1000) })
      .where({ display_prefix: token.slice(0, 8) });
    const res = await request('GET', url('/incidents'), { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: INVALID_TOKEN_MESSAGE });
  });

  it('when a token is revoked, then the next request is refused with the same 401', async () => {
    const token = await tokenFor(stack.orm, ws.organizationId, ws.admin.email, 'READ_WRITE');
    expect((await request('GET', url('/services'), { token })).status).toBe(200);
    const row = await knexOf(stack.orm)('api_tokens')
      .select('id')
      .where({ display_prefix: token.slice(0, 8) })
      .first();
    await revokeApiToken(stack.orm, row.id);
    const res = await request('GET', url('/services'), { token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: INVALID_TOKEN_MESSAGE });
  });
});

describe('403: access level and workspace', () => {
  it.each(WRITE_ROUTES.map((p, i) => [i, p] as const))('when a READ_ONLY token POSTs to write route #%s, then 403 and nothing changes', async (_i, p) => {
    // Incidents and their moves; the paging decision an incident's workflow writes on its own may land meanwhile.
    const state = async () => ({
      incidents: await knexOf(stack.orm)('incidents').where({ organization_id: ws.organizationId }).orderBy('id').select('id', 'status'),
      moves: await knexOf(stack.orm)('timeline_entries')
        .where({ organization_id: ws.organizationId })
        .whereIn('type', ['created', 'status_change'])
        .orderBy(['incident_id', 'seq'])
        .select('incident_id', 'seq'),
    });
    const before = await state();
    const res = await request('POST', url(resolvePath(p)), { token: ws.tokens.readOnly, body: { title: 't', severity: 'LOW', owning_team_id: ws.teamId } });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/READ_ONLY/);
    expect(await state()).toEqual(before);
  });

  it.each(READ_ROUTES.map((p, i) => [i, p] as const))('when a READ_ONLY token GETs read route #%s, then 200', async (_i, p) => {
    const res = await request('GET', url(resolvePath(p)), { token: ws.tokens.readOnly });
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty('data');
  });

  it.each([...READ_ROUTES.map((p) => ['GET', p] as const), ...WRITE_ROUTES.map((p) => ['POST', p] as const)])(
    "when a token is used on another workspace's path (%s), then 403",
    async (method, p) => {
      const res = await request(method, url(resolvePath(p), other.organizationId), { token: ws.tokens.readWrite, body: method === 'POST' ? {} : undefined });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/does not belong to the workspace/);
    },
  );

  it("when an incident id of another workspace is used under the token's own workspace, then 404", async () => {
    expect((await request('GET', url(`/incidents/${otherIncidentId}`), { token: ws.tokens.readOnly })).status).toBe(404);
    expect((await request('POST', url(`/incidents/${otherIncidentId}/acknowledge`), { token: ws.tokens.readWrite })).status).toBe(404);
    expect((await request('GET', url(`/services/${other.serviceId}`), { token: ws.tokens.readOnly })).status).toBe(404);
    const theirs = await knexOf(stack.orm)('incidents').where({ id: otherIncidentId }).first();
    expect(theirs.status).toBe('TRIGGERED');
  });
});

describe('403: the owner or the workspace stops qualifying, rechecked on every request', () => {
  it('when the owner is demoted from Account Admin to Member, then the token stops working at once, and works again when restored', async () => {
    const admin = await addMember(stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
    const token = await tokenFor(stack.orm, ws.organizationId, admin.email, 'READ_WRITE');
    expect((await request('GET', url('/incidents'), { token })).status).toBe(200);
    await setRole(stack.orm, ws.organizationId, admin.id, 'MEMBER');
    const res = await request('GET', url('/incidents'), { token });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/no longer an Account Admin or Billing Owner/);
    await setRole(stack.orm, ws.organizationId, admin.id, 'TEAM_MANAGER');
    expect((await request('GET', url('/incidents'), { token })).status).toBe(403);
    await setRole(stack.orm, ws.organizationId, admin.id, 'BILLING_OWNER');
    expect((await request('GET', url('/incidents'), { token })).status).toBe(200);
  });

  it('when the owner account becomes unverified, then the token stops working', async () => {
    const admin = await addMember(stack.orm, ws.organizationId, 'ACCOUNT_ADMIN');
    const token = await tokenFor(stack.orm, ws.organizationId, admin.email, 'READ_ONLY');
    await setVerified(stack.orm, admin.id, false);
    const res = await request('GET', url('/incidents'), { token });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/not verified/);
  });

  it('when the workspace moves to a plan without API access, then every token of it stops working', async () => {
    const ws2 = await seedWorkspace(stack.orm, { plan: 'BUSINESS' });
    const path = `${stack.urls.app}/api/v1/organizations/${ws2.organizationId}/incidents`;
    expect((await request('GET', path, { token: ws2.tokens.readOnly })).status).toBe(200);
    for (const plan of ['STARTER', 'FREE'] as const) {
      await setPlan(stack.orm, ws2.organizationId, plan);
      const res = await request('GET', path, { token: ws2.tokens.readOnly });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(new RegExp(`${plan} plan does not include API access`));
    }
    await setPlan(stack.orm, ws2.organizationId, 'PRO');
    expect((await request('GET', path, { token: ws2.tokens.readOnly })).status).toBe(200);
  });
});

describe('405: only the allowlisted methods exist', () => {
  it.each([
    ['POST', '/services'],
    ['POST', () => `/services/${ws.serviceId}`],
    ['DELETE', () => `/services/${ws.serviceId}`],
    ['PUT', () => `/incidents/${incidentId}`],
    ['PATCH', () => `/incidents/${incidentId}`],
    ['DELETE', () => `/incidents/${incidentId}`],
    ['POST', '/monitors'],
    ['GET', () => `/incidents/${incidentId}/acknowledge`],
  ] as const)('when %s is sent to an allowlisted path, then 405 with Allow', async (method, p) => {
    const res = await request(method, url(resolvePath(p)), { token: ws.tokens.readWrite });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toMatch(/GET|POST/);
    expect(res.body.message).toMatch(/not allowed/);
  });

  it('when a path outside the allowlist is called with a token, then 404 (heartbeats, members, schedules are not here)', async () => {
    for (const p of ['/heartbeats', '/members', '/schedules', '/tokens']) {
      const res = await request('GET', url(p), { token: ws.tokens.readWrite });
      expect(res.status).toBe(404);
      expect(typeof res.body.message).toBe('string');
    }
  });
});

describe('secrets stay out of logs and errors', () => {
  it('when requests carry tokens, good or bad, then no token text reaches a log line or an error body', async () => {
    const bad = `klx_${'Z'.repeat(43)}`;
    const badRes = await request('GET', url('/incidents'), { token: bad });
    await request('GET', url('/incidents'), { token: ws.tokens.readWrite });
    await request('POST', url('/incidents'), { token: ws.tokens.readOnly, body: {} });
    expect(JSON.stringify(badRes.body)).not.toContain(bad);
    const all = stack.logs.lines.join('\n');
    for (const secret of [bad, ws.tokens.readWrite, ws.tokens.readOnly]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/klx_[A-Za-z0-9_-]{10,}/);
  });

  it('when a request is served, then exactly one log line names method, route pattern, status, duration and request id', async () => {
    const res = await request('GET', url(`/incidents/${incidentId}`), { token: ws.tokens.readOnly, headers: { 'X-Request-Id': 'req-abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('req-abc-123');
    const lines = stack.logs.records.filter((r) => r.request_id === 'req-abc-123');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      method: 'GET',
      route: '/api/v1/organizations/{organization_id}/incidents/{incident_id}',
      status: 200,
      surface: 'app',
    });
    expect(typeof lines[0].duration_ms).toBe('number');
    expect(JSON.stringify(lines[0])).not.toContain(incidentId); // the pattern, not the raw URL
  });
});
