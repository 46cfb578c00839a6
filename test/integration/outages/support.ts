import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../../src/db/knex';
import { createHeartbeat } from '../../../src/services/ingest/heartbeats';
import { addTeamMember } from '../../../src/services/workspace/team-members';
import type { ApiResponse } from '../../support/http';
import { responder } from '../../support/paging';
import { startTcpProxy } from '../../support/tcp-proxy';
import type { SeededWorkspace } from '../../support/workspace';

/** A cuttable proxy to the run's Temporal server, and the address that goes through it. */
export async function temporalProxy() {
  const [host, port] = process.env.KLAXON_TEST_TEMPORAL_ADDRESS!.split(':');
  const proxy = await startTcpProxy({ host, port: Number(port) });
  return { proxy, address: `127.0.0.1:${proxy.port}` };
}

/** A cuttable proxy to this file's Postgres database, and the URL that goes through it. */
export async function postgresProxy() {
  const real = new URL(process.env.KLAXON_TEST_DATABASE_URL!);
  // The embedded server is reached by its Unix socket; the proxy goes to its TCP listener.
  const tcpHost = decodeURIComponent(real.hostname).startsWith('/') ? '127.0.0.1' : real.hostname;
  const proxy = await startTcpProxy({ host: tcpHost, port: Number(real.port || 5432) });
  const viaProxy = new URL(real.toString());
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  return { proxy, url: viaProxy.toString() };
}

/** The owning team gets a member paged by email at once, so an incident that pages leaves a notification. */
export async function teamResponder(orm: MikroORM, ws: SeededWorkspace) {
  const person = await responder(orm, ws.organizationId, 'email');
  await addTeamMember(orm, { teamId: ws.teamId, email: person.email });
  return person;
}

/** Rows of every table a half-done call could leave behind, and the workspace's incident counter. */
export async function footprint(orm: MikroORM, organizationId: string) {
  const k = knexOf(orm);
  const count = async (table: string, where: Record<string, string> = {}) => Number((await k(table).where(where).count({ n: '*' }))[0].n);
  return {
    incidents: await count('incidents', { organization_id: organizationId }),
    timeline: await count('timeline_entries', { organization_id: organizationId }),
    outbox: await count('ingest_outbox'),
    pendingOutbox: Number((await k('ingest_outbox').whereNull('delivered_at').count({ n: '*' }))[0].n),
    incidentSeq: Number((await k('organizations').where({ id: organizationId }).first('incident_seq')).incident_seq),
  };
}

/** A heartbeat on the workspace's service, with a long period so nothing but pings happens. */
export const quietHeartbeat = (orm: MikroORM, ws: SeededWorkspace, ingestBaseUrl: string) =>
  createHeartbeat(orm, { serviceId: ws.serviceId, name: `outage ${randomUUID().slice(0, 6)}`, periodSeconds: 3600, graceSeconds: 60, ingestBaseUrl });

/** What every surface answers while a dependency is away. */
export function expectUnavailable(res: ApiResponse, what: RegExp) {
  expect({ status: res.status, retryAfter: res.headers.get('retry-after'), code: res.body?.code }).toEqual({
    status: 503,
    retryAfter: '5',
    code: 'service_unavailable',
  });
  expect(res.body.message).toMatch(what);
}
