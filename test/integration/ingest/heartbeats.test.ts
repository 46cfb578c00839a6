import { heartbeatStateQuery, heartbeatWorkflowId } from '../../../src/contracts/workflows';
import { knexOf } from '../../../src/db/knex';
import { createHeartbeat, setHeartbeatPaused } from '../../../src/services/ingest/heartbeats';
import { klaxon } from '../../support/cli';
import { useStackWithWorkspace } from '../../support/fixture';
import { request } from '../../support/http';
import { waitFor } from '../../support/wait';

const f = useStackWithWorkspace();
const newHeartbeat = (name: string) =>
  createHeartbeat(f.stack.orm, { serviceId: f.ws.serviceId, name, periodSeconds: 1, graceSeconds: 1, ingestBaseUrl: f.stack.urls.ingest });
const missedIncident = (hbId: string) =>
  knexOf(f.stack.orm)('incidents')
    .where({ service_id: f.ws.serviceId, dedup_key: `heartbeat:${hbId}` })
    .orderBy('created_at', 'desc')
    .first();

describe('heartbeats', () => {
  it('when pinged by GET, HEAD or POST, then 200 at once; an unknown token is 404', async () => {
    const hb = await newHeartbeat('cron');
    for (const method of ['GET', 'HEAD', 'POST']) expect((await request(method, hb.ping_url)).status).toBe(200);
    expect((await request('GET', `${f.stack.urls.ingest}/ping/${'x'.repeat(32)}`)).status).toBe(404);
    const state = await f.stack.temporal.workflow.getHandle(heartbeatWorkflowId(hb.id)).query(heartbeatStateQuery);
    expect(state.pings).toBe(3);
    expect((await knexOf(f.stack.orm)('heartbeats').where({ id: hb.id }).first()).last_ping_at).not.toBeNull();
  });

  it('when a check-in is missed, then an incident opens on the service; the next ping resolves it', async () => {
    const hb = await newHeartbeat('backup job');
    await request('POST', hb.ping_url);
    const incident = await waitFor(() => missedIncident(hb.id), 10_000, 'the missed-heartbeat incident');
    expect(incident).toMatchObject({ title: 'Heartbeat missed: backup job', status: 'TRIGGERED', severity: 'HIGH', owning_team_id: f.ws.teamId });
    await request('GET', hb.ping_url);
    await waitFor(
      async () => (await knexOf(f.stack.orm)('incidents').where({ id: incident.id }).first()).status === 'RESOLVED',
      10_000,
      'the ping to resolve it',
    );
  });

  it('when paused, then a silent heartbeat opens nothing', async () => {
    const hb = await newHeartbeat('paused job');
    await request('POST', hb.ping_url);
    await setHeartbeatPaused(f.stack.orm, f.stack.temporal, hb.id, true);
    await new Promise((r) => setTimeout(r, 3500));
    expect(await missedIncident(hb.id)).toBeUndefined();
    expect((await f.stack.temporal.workflow.getHandle(heartbeatWorkflowId(hb.id)).query(heartbeatStateQuery)).paused).toBe(true);
  });
});

describe('klaxon heartbeat', () => {
  it('when created from the CLI, then it prints its ping URL; pause and resume change its status', async () => {
    const created = await klaxon(
      ['heartbeat', 'create', '--service', f.ws.serviceId, '--period-seconds', '300', '--grace-seconds', '30', '--name', 'nightly', '--json'],
      { INGEST_URL: 'https://in.klaxon.test' },
    );
    expect(created.code).toBe(0);
    expect(created.json).toEqual({
      id: expect.any(String),
      name: 'nightly',
      service_id: f.ws.serviceId,
      period_seconds: 300,
      grace_seconds: 30,
      status: 'ACTIVE',
      ping_url: expect.stringMatching(/^https:\/\/in\.klaxon\.test\/ping\/[A-Za-z0-9_-]{32}$/),
    });
    const paused = await klaxon(['heartbeat', 'pause', created.json.id, '--json'], { TEMPORAL_ADDRESS: process.env.KLAXON_TEST_TEMPORAL_ADDRESS! });
    expect(paused.json).toEqual({ id: created.json.id, status: 'PAUSED' });
    const bad = await klaxon(['heartbeat', 'create', '--service', f.ws.serviceId, '--period-seconds', '0', '--json']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--period-seconds: must be at least 1/);
  });
});
