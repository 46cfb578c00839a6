import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { iso } from '../../db/timestamps';
import { invalid, notFound } from '../errors';
import { teamBelongsTo } from './workspaces';

/** Services, monitors and alert sources: what alerts are routed by. */

interface ServiceRow {
  id: string;
  name: string;
  description: string | null;
  team_id: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const serviceJson = (r: ServiceRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  owning_team_id: r.team_id,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});
export type ServiceJson = ReturnType<typeof serviceJson>;

export async function createService(
  orm: MikroORM,
  input: { organizationId: string; teamId: string; name: string; description?: string },
): Promise<ServiceJson> {
  if (!(await teamBelongsTo(orm, input.organizationId, input.teamId))) {
    throw invalid(`team ${input.teamId} is not a team of this workspace`);
  }
  const now = new Date();
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    team_id: input.teamId,
    name: input.name,
    description: input.description ?? null,
    created_at: now,
    updated_at: now,
  };
  await knexOf(orm)('services').insert(row);
  return serviceJson(row);
}

const SERVICE_COLUMNS = ['id', 'name', 'description', 'team_id', 'created_at', 'updated_at'];

export async function listServices(orm: MikroORM, organizationId: string): Promise<ServiceJson[]> {
  const rows = await knexOf(orm)('services').select(SERVICE_COLUMNS).where({ organization_id: organizationId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(serviceJson);
}

/** A service of this workspace; another workspace's service is simply not found. */
export async function getService(orm: MikroORM, organizationId: string, id: string): Promise<ServiceJson> {
  const row = await knexOf(orm)('services').select(SERVICE_COLUMNS).where({ id, organization_id: organizationId }).first();
  if (!row) throw notFound(`service ${id} not found`);
  return serviceJson(row);
}

interface MonitorRow {
  id: string;
  service_id: string;
  name: string;
  type: string;
  target: string;
  interval_seconds: number;
  status: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const monitorJson = (r: MonitorRow) => ({
  id: r.id,
  service_id: r.service_id,
  name: r.name,
  type: r.type,
  target: r.target,
  interval_seconds: r.interval_seconds,
  status: r.status,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});
export type MonitorJson = ReturnType<typeof monitorJson>;

const MONITOR_COLUMNS = ['id', 'service_id', 'name', 'type', 'target', 'interval_seconds', 'status', 'created_at', 'updated_at'];

export async function listMonitors(orm: MikroORM, organizationId: string): Promise<MonitorJson[]> {
  const rows = await knexOf(orm)('monitors').select(MONITOR_COLUMNS).where({ organization_id: organizationId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(monitorJson);
}

export async function getMonitor(orm: MikroORM, organizationId: string, id: string): Promise<MonitorJson> {
  const row = await knexOf(orm)('monitors').select(MONITOR_COLUMNS).where({ id, organization_id: organizationId }).first();
  if (!row) throw notFound(`monitor ${id} not found`);
  return monitorJson(row);
}

/** Adds a monitor record (the dashboard will own monitor management; tests and CLI use this). */
export async function createMonitor(
  orm: MikroORM,
  input: { organizationId: string; serviceId: string; name: string; type: string; target: string; intervalSeconds: number },
): Promise<MonitorJson> {
  await getService(orm, input.organizationId, input.serviceId);
  const now = new Date();
  const row = {
    id: randomUUID(),
    organization_id: input.organizationId,
    service_id: input.serviceId,
    name: input.name,
    type: input.type,
    target: input.target,
    interval_seconds: input.intervalSeconds,
    status: 'ACTIVE',
    created_at: now,
    updated_at: now,
  };
  await knexOf(orm)('monitors').insert(row);
  return monitorJson(row);
}

/** The workspace a service belongs to, for commands that name only the service. */
export async function workspaceOfService(orm: MikroORM, serviceId: string): Promise<string> {
  if (!isUuid(serviceId)) throw invalid('--service must be a service id (UUID)');
  const service = await knexOf(orm)('services').select('organization_id').where({ id: serviceId }).first();
  if (!service) throw notFound(`service ${serviceId} not found`);
  return service.organization_id as string;
}
