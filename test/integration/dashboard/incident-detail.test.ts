import { knexOf } from '../../../src/db/knex';
import { createSource } from '../../../src/services/ingest/sources';
import { createService, createTeam } from '../../../src/services/workspace';
import { dashboardFixture, expectDashboardError, memberSession, signUpAndLogIn } from '../../support/dashboard';
import { waitFor } from '../../support/wait';

// The incident page shows everything the sender said (docs/incident-page.md): the dashboard's
// incident answer carries each alert's dedup key, description and metadata, and the service's name;
// My profile's time zone is the member's own, checked by the server.
const fx = dashboardFixture();

async function workspaceWithSource() {
  const owner = await signUpAndLogIn(fx.stack.urls.app, fx.stack.orm);
  const team = await createTeam(fx.stack.orm, { organizationId: owner.organizationId, name: 'Payments' });
  const service = await createService(fx.stack.orm, { organizationId: owner.organizationId, teamId: team.id, name: 'Checkout' });
  const source = await createSource(fx.stack.orm, {
    organizationId: owner.organizationId,
    serviceId: service.id,
    name: 'alerts',
    ingestBaseUrl: fx.stack.urls.ingest,
  });
  return { owner, service, ingestUrl: source.ingest_url };
}

describe('the incident page’s data', () => {
  it('when a Form A event with a description, dedup key, source and metadata opens an incident, then GET /api/incidents/{id} answers them all and the service’s name', async () => {
    const { owner, service, ingestUrl } = await workspaceWithSource();
    const sent = {
      title: 'Disk almost full',
      message: 'db-1 at 97%\nsee https://grafana.example.test/d/disk',
      description: 'Runbook: https://runbooks.example.test/disk',
      dedup_key: 'disk-db-1',
      source: 'prometheus',
      severity: 'critical',
      metadata: { labels: { host: 'db-1', region: 'eu-west-1' }, runbook_url: 'https://runbooks.example.test/disk', threshold: 95 },
    };
    const res = await fetch(ingestUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sent) });
    expect(res.status).toBe(202);
    const { incident_id: id } = (await res.json()) as { incident_id: string };
    await waitFor(async () => (await knexOf(fx.stack.orm)('incidents').where({ id }).first()) !== undefined, 20_000, 'the incident');

    const one = await fx.api('GET', `/incidents/${id}`, { session: owner });
    expect(one.status).toBe(200);
    expect(one.body.data.service).toEqual({ id: service.id, name: 'Checkout' });
    expect(one.body.data.alerts).toEqual([
      expect.objectContaining({
        title: 'Disk almost full',
        message: sent.message,
        description: sent.description,
        dedup_key: 'disk-db-1',
        source: 'prometheus',
        metadata: sent.metadata,
      }),
    ]);
  });
});

describe('My profile’s time zone', () => {
  it('when a member sets an IANA zone, then GET /api/profile answers it and the users row holds it; null clears it', async () => {
    const { owner } = await workspaceWithSource();
    expect((await fx.api('GET', '/profile', { session: owner })).body.data).toMatchObject({ email: owner.email, time_zone: null });
    const set = await fx.api('PUT', '/profile', { session: owner, body: { time_zone: 'Europe/Berlin' } });
    expect(set.status).toBe(200);
    expect(set.body.data.time_zone).toBe('Europe/Berlin');
    expect((await fx.api('GET', '/profile', { session: owner })).body.data.time_zone).toBe('Europe/Berlin');
    expect((await knexOf(fx.stack.orm)('users').where({ email: owner.email }).first()).time_zone).toBe('Europe/Berlin');
    expect((await fx.api('PUT', '/profile', { session: owner, body: { time_zone: null } })).body.data.time_zone).toBeNull();
  });

  it('when the zone is not an IANA name, too long or the body names email, then 400 naming the field and nothing changes', async () => {
    const { owner } = await workspaceWithSource();
    await fx.api('PUT', '/profile', { session: owner, body: { time_zone: 'America/New_York' } });
    for (const body of [{ time_zone: 'Europe/Atlantis' }, { time_zone: 'x'.repeat(500) }, { time_zone: 42 }, { email: 'someone@else.test' }, {}]) {
      const res = await fx.api('PUT', '/profile', { session: owner, body });
      expectDashboardError(res, 400, 'invalid_request', Object.keys(body).length ? new RegExp(Object.keys(body)[0]) : /time_zone/);
    }
    expect(await knexOf(fx.stack.orm)('users').where({ email: owner.email }).first()).toMatchObject({ time_zone: 'America/New_York', email: owner.email });
  });

  it('when a Stakeholder sets their own time zone, then it is allowed (their own account), as reading it is', async () => {
    const { owner } = await workspaceWithSource();
    const stakeholder = await memberSession(fx.stack.urls.app, fx.stack.orm, owner.organizationId, 'STAKEHOLDER');
    const set = await fx.api('PUT', '/profile', { session: stakeholder, body: { time_zone: 'Asia/Tokyo' } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ email: stakeholder.email, time_zone: 'Asia/Tokyo', role: 'STAKEHOLDER' });
  });
});
