import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { hashSecret } from '../../domain/api-token';
import { isUuid, looksLikeUrlSecret, newUrlSecret } from '../../domain/ids';
import { heartbeatPauseSignal, heartbeatPingSignal, heartbeatWorkflowId, type HeartbeatWorkflowInput } from '../../../workflows/definitions';
import { workspaceOfService } from '../workspace/catalog';
import { knexOf } from '../../db/knex';
import { invalid, notFound } from '../errors';

interface HeartbeatRow {
  id: string;
  name: string;
  service_id: string;
  period_seconds: number;
  grace_seconds: number;
  status: 'ACTIVE' | 'PAUSED';
}

const COLUMNS = ['id', 'name', 'service_id', 'period_seconds', 'grace_seconds', 'status'];

/** Creates a heartbeat on a service; its ping URL (a credential) is returned this once. */
export async function createHeartbeat(orm: MikroORM, input: { serviceId: string; name: string; periodSeconds: number; graceSeconds: number; ingestBaseUrl: string }) {
  const organizationId = await workspaceOfService(orm, input.serviceId);
  const secret = newUrlSecret();
  const row = {
    id: randomUUID(),
    organization_id: organizationId,
    service_id: input.serviceId,
    name: input.name,
    token_hash: hashSecret(secret),
    period_seconds: input.periodSeconds,
    grace_seconds: input.graceSeconds,
    status: 'ACTIVE',
    created_at: new Date(),
  };
  await knexOf(orm)('heartbeats').insert(row);
  return { id: row.id, name: row.name, service_id: row.service_id, period_seconds: row.period_seconds, grace_seconds: row.grace_seconds, status: row.status, ping_url: `${input.ingestBaseUrl}/ping/${secret}` };
}

/** The heartbeat a ping secret belongs to (found by hash), with its last ping recorded. */
export async function recordPing(orm: MikroORM, secret: string): Promise<HeartbeatRow | undefined> {
  if (!looksLikeUrlSecret(secret)) return undefined;
  const [row] = await knexOf(orm)('heartbeats').update({ last_ping_at: new Date() }).where({ token_hash: hashSecret(secret) }).returning(COLUMNS);
  return row as HeartbeatRow | undefined;
}

const workflowInput = (hb: HeartbeatRow): HeartbeatWorkflowInput => ({
  heartbeatId: hb.id,
  periodSeconds: hb.period_seconds,
  graceSeconds: hb.grace_seconds,
  paused: hb.status === 'PAUSED',
  missedIncidentId: null,
});

/** Tells the heartbeat's workflow about a ping, starting it on the first one. */
export async function deliverPing(temporal: Client, taskQueue: string, hb: HeartbeatRow): Promise<void> {
  await temporal.workflow.signalWithStart('heartbeatWorkflow', {
    workflowId: heartbeatWorkflowId(hb.id),
    taskQueue,
    args: [workflowInput(hb)],
    signal: heartbeatPingSignal,
    signalArgs: [],
  });
}

/** Pauses or resumes: the row, and the workflow if it runs (a paused heartbeat opens nothing). */
export async function setHeartbeatPaused(orm: MikroORM, temporal: Client | undefined, id: string, paused: boolean) {
  if (!isUuid(id)) throw invalid('heartbeat id must be a UUID');
  const [row] = await knexOf(orm)('heartbeats').update({ status: paused ? 'PAUSED' : 'ACTIVE' }).where({ id }).returning(COLUMNS);
  if (!row) throw notFound(`heartbeat ${id} not found`);
  if (temporal) {
    try {
      await temporal.workflow.getHandle(heartbeatWorkflowId(id)).signal(heartbeatPauseSignal, { paused });
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err; // never pinged yet: nothing runs
    }
  }
  return { id, status: row.status as string };
}
