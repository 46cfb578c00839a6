import { heartbeatWorkflowId, incidentWorkflowId } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { transitionIncident } from '../../../src/services/incident';
import { createEscalationPolicy } from '../../../src/services/paging/escalation-policies';
import { addTeamMember } from '../../../src/services/workspace';
import { auditLog, catalogWorkspace, countIn, ROLE_TABLE, type CatalogWorkspace } from '../../support/catalog';
import { dashboardFixture, type DashboardSession } from '../../support/dashboard';
import { request } from '../../support/http';
import { waitFor } from '../../support/wait';
import { tokenFor } from '../../support/workspace';

const fx = dashboardFixture();
const { api } = fx;
let ws: CatalogWorkspace;

beforeAll(async () => {
  ws = await catalogWorkspace(fx.stack);
});

const admin = () => ws.as.ACCOUNT_ADMIN;
const newService = async (teamId = ws.team.id, name = 'Checkout') => {
  const res = await api('POST', '/services', { session: admin(), body: { name, team_id: teamId } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; name: string; owning_team_id: string };
};
const serviceRow = (id: string) => knexOf(fx.stack.orm)('services').where({ id }).first();
const policy = (organizationId: string, name: string) =>
  createEscalationPolicy(fx.stack.orm, { organizationId, name, steps: [{ delay_seconds: 60, targets: [{ type: 'team', id: ws.team.id }] }] as never });

describe('who may manage services', () => {
  it.each(ROLE_TABLE)('when a %s creates a service for the team, then allowed = %s (else 403 forbidden and nothing is stored)', async (role, allowed) => {
    const before = await countIn(fx.stack, 'services', ws.organizationId);
    const res = await api('POST', '/services', { session: ws.as[role], body: { name: `by ${role}`, team_id: ws.team.id, description: 'card flows' } });
    if (allowed) {
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        name: `by ${role}`,
        description: 'card flows',
        owning_team_id: ws.team.id,
        escalation_policy_id: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect((await api('GET', `/services/${res.body.data.id}`, { session: ws.as.MEMBER })).body.data).toEqual(res.body.data);
    } else {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, code: 'forbidden' });
      expect(await countIn(fx.stack, 'services', ws.organizationId)).toBe(before);
    }
  });

  it.each(ROLE_TABLE)('when a %s renames the team’s service, then allowed = %s (else 403 and the name stays)', async (role, allowed) => {
    const service = await newService();
    const res = await api('PUT', `/services/${service.id}`, { session: ws.as[role], body: { name: `renamed by ${role}`, description: null } });
    expect(res.status).toBe(allowed ? 200 : 403);
    expect((await serviceRow(service.id)).name).toBe(allowed ? `renamed by ${role}` : 'Checkout');
    if (!allowed) expect(res.body.code).toBe('forbidden');
  });

  it.each(ROLE_TABLE)('when a %s deletes the team’s service, then allowed = %s (else 403 and it stays)', async (role, allowed) => {
    const service = await newService();
    const res = await api('DELETE', `/services/${service.id}`, { session: ws.as[role] });
    expect(res.status).toBe(allowed ? 200 : 403);
    expect(Boolean(await serviceRow(service.id))).toBe(!allowed);
    expect((await api('GET', `/services/${service.id}`, { session: ws.as.MEMBER })).status).toBe(allowed ? 404 : 200);
  });

  it('when a Team Manager creates a service for a team they are not in, then 403; moving their service needs them in both teams', async () => {
    const tm = ws.as.TEAM_MANAGER;
    expect((await api('POST', '/services', { session: tm, body: { name: 'Search API', team_id: ws.otherTeam.id } })).status).toBe(403);
    const service = await newService();
    const away = await api('PUT', `/services/${service.id}`, { session: tm, body: { team_id: ws.otherTeam.id } });
    expect(away.status).toBe(403);
    expect((await serviceRow(service.id)).team_id).toBe(ws.team.id);
    const foreign = await newService(ws.otherTeam.id, 'Search');
    expect((await api('PUT', `/services/${foreign.id}`, { session: tm, body: { team_id: ws.team.id } })).status).toBe(403);
    expect((await api('PUT', `/services/${service.id}`, { session: admin(), body: { team_id: ws.otherTeam.id } })).body.data.owning_team_id).toBe(
      ws.otherTeam.id,
    );
  });

  it('when a Team Manager is in both teams, then they may move a service between them', async () => {
    const both = await catalogWorkspace(fx.stack);
    await addTeamMember(fx.stack.orm, { teamId: both.otherTeam.id, email: both.as.TEAM_MANAGER.email });
    const created = await api('POST', '/services', { session: both.as.TEAM_MANAGER, body: { name: 'Shared', team_id: both.team.id } });
    const moved = await api('PUT', `/services/${created.body.data.id}`, { session: both.as.TEAM_MANAGER, body: { team_id: both.otherTeam.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.data.owning_team_id).toBe(both.otherTeam.id);
  });
});

describe('reading services', () => {
  it('when any member lists services, then they see the workspace’s own, oldest first, and no other workspace’s', async () => {
    const other = await catalogWorkspace(fx.stack);
    const theirs = (await api('POST', '/services', { session: other.as.ACCOUNT_ADMIN, body: { name: 'Theirs', team_id: other.team.id } })).body.data;
    const mine = await newService(ws.team.id, 'Mine');
    const list = await api('GET', '/services', { session: ws.as.MEMBER });
    expect(list.status).toBe(200);
    const ids = list.body.data.map((s: { id: string }) => s.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(list.body.meta.total).toBe(ids.length);
    expect((await api('GET', `/services/${theirs.id}`, { session: ws.as.ACCOUNT_ADMIN })).status).toBe(404);
    expect((await api('PUT', `/services/${theirs.id}`, { session: ws.as.ACCOUNT_ADMIN, body: { name: 'mine now' } })).status).toBe(404);
    expect((await api('DELETE', `/services/${theirs.id}`, { session: ws.as.ACCOUNT_ADMIN })).status).toBe(404);
  });

  it('when a customer API token tries to create a service, then 405: services are changed in the dashboard only', async () => {
    const token = await tokenFor(fx.stack.orm, ws.organizationId, ws.owner.email, 'READ_WRITE');
    const res = await request('POST', `${fx.stack.urls.app}/api/v1/organizations/${ws.organizationId}/services`, {
      token,
      body: { name: 'via token', team_id: ws.team.id },
    });
    expect(res.status).toBe(405);
  });
});

describe('a service’s escalation policy', () => {
  it('when set on create, changed, then cleared with null, then the service pages with it (or none)', async () => {
    const primary = await policy(ws.organizationId, 'Primary');
    const secondary = await policy(ws.organizationId, 'Secondary');
    const created = await api('POST', '/services', { session: admin(), body: { name: 'Paged', team_id: ws.team.id, escalation_policy_id: primary.id } });
    expect(created.body.data.escalation_policy_id).toBe(primary.id);
    const changed = await api('PUT', `/services/${created.body.data.id}`, { session: admin(), body: { escalation_policy_id: secondary.id } });
    expect(changed.body.data.escalation_policy_id).toBe(secondary.id);
    const cleared = await api('PUT', `/services/${created.body.data.id}`, { session: admin(), body: { escalation_policy_id: null } });
    expect(cleared.body.data).toMatchObject({ escalation_policy_id: null, name: 'Paged' });
    expect((await serviceRow(created.body.data.id)).escalation_policy_id).toBeNull();
  });

  it('when the policy or team is another workspace’s or unknown, then 400 naming the field and nothing is written', async () => {
    const other = await catalogWorkspace(fx.stack);
    const theirs = await createEscalationPolicy(fx.stack.orm, {
      organizationId: other.organizationId,
      name: 'Theirs',
      steps: [{ delay_seconds: 60, targets: [{ type: 'team', id: other.team.id }] }] as never,
    });
    const before = await countIn(fx.stack, 'services', ws.organizationId);
    const badPolicy = await api('POST', '/services', { session: admin(), body: { name: 'X', team_id: ws.team.id, escalation_policy_id: theirs.id } });
    expect(badPolicy.status).toBe(400);
    expect(badPolicy.body.error).toMatch(/^escalation_policy_id: /);
    const badTeam = await api('POST', '/services', { session: admin(), body: { name: 'X', team_id: other.team.id } });
    expect(badTeam.status).toBe(400);
    expect(badTeam.body.error).toMatch(/^team_id: /);
    expect(await countIn(fx.stack, 'services', ws.organizationId)).toBe(before);
    const service = await newService();
    const move = await api('PUT', `/services/${service.id}`, { session: admin(), body: { name: 'Moved', escalation_policy_id: theirs.id } });
    expect(move.status).toBe(400);
    expect((await serviceRow(service.id)).name).toBe('Checkout');
  });
});

describe('bad input and CSRF', () => {
  it.each([
    ['an unknown field', (team: string) => ({ name: 'X', team_id: team, owner: 'me' }), /"owner"/],
    ['a name of the wrong type', (team: string) => ({ name: 42, team_id: team }), /^name: /],
    ['a name over 255 characters', (team: string) => ({ name: 'n'.repeat(256), team_id: team }), /^name: must be at most 255 characters/],
    [
      'a description over 2000 characters',
      (team: string) => ({ name: 'X', team_id: team, description: 'd'.repeat(2001) }),
      /^description: must be at most 2000 characters/,
    ],
    ['a team_id that is not a UUID', () => ({ name: 'X', team_id: 'payments' }), /^team_id: must be a UUID/],
    ['no team_id', () => ({ name: 'X' }), /^team_id: /],
  ])('when the body has %s, then 400 naming the field and nothing is written', async (_what, body, message) => {
    const before = await countIn(fx.stack, 'services', ws.organizationId);
    const res = await api('POST', '/services', { session: admin(), body: body(ws.team.id) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'invalid_request', error: expect.stringMatching(message), timestamp: expect.any(String) });
    expect(await countIn(fx.stack, 'services', ws.organizationId)).toBe(before);
  });

  it('when a change comes without X-CSRF-Token, then 403 csrf_failed and nothing changes', async () => {
    const service = await newService();
    const noCsrf = (method: string, path: string, body?: unknown) => api(method, path, { session: admin(), csrf: null, body });
    const before = await countIn(fx.stack, 'services', ws.organizationId);
    for (const res of [
      await noCsrf('POST', '/services', { name: 'sneaky', team_id: ws.team.id }),
      await noCsrf('PUT', `/services/${service.id}`, { name: 'sneaky' }),
      await noCsrf('DELETE', `/services/${service.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('csrf_failed');
    }
    expect(await countIn(fx.stack, 'services', ws.organizationId)).toBe(before);
    expect((await serviceRow(service.id)).name).toBe('Checkout');
  });
});

describe('deleting a service', () => {
  const newSource = async (serviceId: string) =>
    (await api('POST', '/sources', { session: admin(), body: { name: 'prometheus', service_id: serviceId } })).body.data;
  const newHeartbeat = async (serviceId: string) =>
    (await api('POST', '/heartbeats', { session: admin(), body: { service_id: serviceId, name: 'nightly', period_seconds: 3600, grace_seconds: 60 } })).body
      .data;

  it('when it has an open incident, then 409 service_has_open_incidents; once resolved, it goes with its sources and heartbeats, and the incident stays readable', async () => {
    const service = await newService(ws.team.id, 'Doomed');
    const source = await newSource(service.id);
    const heartbeat = await newHeartbeat(service.id);
    expect((await request('GET', heartbeat.ping_url)).status).toBe(200); // its workflow now runs
    const alert = await request('POST', source.webhook_url, { body: { title: 'disk full', dedup_key: 'disk' } });
    expect(alert.status).toBe(202);
    const incidentId = alert.body.incident_id as string;

    const refused = await api('DELETE', `/services/${service.id}`, { session: admin() });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, code: 'service_has_open_incidents' });
    expect(await serviceRow(service.id)).toBeDefined();
    const again = await request('POST', source.webhook_url, { body: { title: 'still taken', dedup_key: 'disk' } });
    expect(again.body).toMatchObject({ status: 'accepted', incident_id: incidentId });

    const deps = { orm: fx.stack.orm, temporal: fx.stack.temporal, taskQueue: fx.stack.taskQueue };
    await waitFor(() => fx.stack.temporal.workflow.getHandle(incidentWorkflowId(incidentId)).describe(), 15_000, 'the incident’s workflow');
    await transitionIncident(deps, { organizationId: ws.organizationId, incidentId, operation: 'resolve', actor: { type: 'system', id: null, via: 'test' } });

    const deleted = await api('DELETE', `/services/${service.id}`, { session: admin() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: service.id, deleted: true, sources_retired: 1, heartbeats_deleted: 1, monitors_deleted: 0 });
    expect((await request('POST', source.webhook_url, { body: { title: 'after delete' } })).status).toBe(404);
    expect((await request('GET', heartbeat.ping_url)).status).toBe(404);
    const described = await fx.stack.temporal.workflow.getHandle(heartbeatWorkflowId(heartbeat.id)).describe();
    expect(described.status.name).toBe('TERMINATED');
    expect((await api('GET', '/sources', { session: admin() })).body.data.map((s: { id: string }) => s.id)).not.toContain(source.id);
    expect((await api('GET', '/heartbeats', { session: admin() })).body.data.map((h: { id: string }) => h.id)).not.toContain(heartbeat.id);

    const token = await tokenFor(fx.stack.orm, ws.organizationId, ws.owner.email, 'READ_ONLY');
    const incident = await request('GET', `${fx.stack.urls.app}/api/v1/organizations/${ws.organizationId}/incidents/${incidentId}`, { token });
    expect(incident.status).toBe(200);
    expect(incident.body.data).toMatchObject({ id: incidentId, status: 'RESOLVED' });
  });
});

describe('the audit log', () => {
  it('when a service is created, changed and deleted, then each change is one entry naming who, what and which', async () => {
    const session: DashboardSession = ws.as.TEAM_MANAGER;
    const created = (await api('POST', '/services', { session, body: { name: 'Audited', team_id: ws.team.id } })).body.data;
    await api('PUT', `/services/${created.id}`, { session, body: { name: 'Audited twice' } });
    await api('DELETE', `/services/${created.id}`, { session });
    const byAction = async (action: string) => (await auditLog(fx.stack, ws.owner, action)).filter((e) => e.target.id === created.id);
    const [create] = await byAction('service.create');
    expect(create).toMatchObject({
      actor: { label: session.email },
      target: { type: 'service', id: created.id },
      details: { name: 'Audited', team_id: ws.team.id },
    });
    const updates = await byAction('service.update');
    expect(updates).toHaveLength(1);
    expect(updates[0].details).toMatchObject({ name: 'Audited twice', changed: ['name'] });
    expect((await byAction('service.delete'))[0].details).toMatchObject({ name: 'Audited twice', sources_retired: 0, heartbeats_deleted: 0 });
  });

  it('when a change is refused, then no entry is written', async () => {
    const service = await newService();
    await api('PUT', `/services/${service.id}`, { session: ws.as.MEMBER, body: { name: 'nope' } });
    expect((await auditLog(fx.stack, ws.owner, 'service.update')).filter((e) => e.target.id === service.id)).toHaveLength(0);
  });
});
