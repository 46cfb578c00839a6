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
import { TEMPORAL_CALL_MS, withinDeadline } from '../../temporal/deadline';

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

/**
 * A check-in: the heartbeat's `last_ping_at` and the signal to its workflow (started on the first
 * ping) go together. The signal is sent inside the transaction, before it commits, so with
 * Temporal away nothing is written and the caller answers 503; a commit lost after the signal
 * only leaves `last_ping_at` behind, and the sender's retry is one more harmless ping. Undefined
 * when the secret names no heartbeat.
 */
export async function pingHeartbeat(orm: MikroORM, temporal: Client, taskQueue: string, secret: string): Promise<HeartbeatRow | undefined> {
  if (!looksLikeUrlSecret(secret)) return undefined;
  return knexOf(orm).transaction(async (trx) => {
    const [row] = (await trx('heartbeats').update({ last_ping_at: new Date() }).where({ token_hash: hashSecret(secret) }).returning(COLUMNS)) as HeartbeatRow[];
    if (row) await withinDeadline(temporal, TEMPORAL_CALL_MS, () => deliverPing(temporal, taskQueue, row));
    return row;
  });
}

const workflowInput = (hb: HeartbeatRow): HeartbeatWorkflowInput => ({
  heartbeatId: hb.id,
  periodSeconds: hb.period_seconds,
  graceSeconds: hb.grace_seconds,
  paused: hb.status === 'PAUSED',
  missedIncidentId: null,
});

/** Tells the heartbeat's workflow about a ping, starting it on the first one. */
function deliverPing(temporal: Client, taskQueue: string, hb: HeartbeatRow): Promise<unknown> {
  return temporal.workflow.signalWithStart('heartbeatWorkflow', {
    workflowId: heartbeatWorkflowId(hb.id),
    taskQueue,
    args: [workflowInput(hb)],
    signal: heartbeatPingSignal,
    signalArgs: [],
  });
}

/** Pauses or resumes: the row, and the workflow if it runs (a paused heartbeat opens nothing); both or neither. */
export async function setHeartbeatPaused(orm: MikroORM, temporal: Client | undefined, id: string, paused: boolean) {
  if (!isUuid(id)) throw invalid('heartbeat id must be a UUID');
  return knexOf(orm).transaction(async (trx) => {
    const [row] = await trx('heartbeats').update({ status: paused ? 'PAUSED' : 'ACTIVE' }).where({ id }).returning(COLUMNS);
    if (!row) throw notFound(`heartbeat ${id} not found`);
    if (temporal) {
      try {
        await withinDeadline(temporal, TEMPORAL_CALL_MS, () => temporal.workflow.getHandle(heartbeatWorkflowId(id)).signal(heartbeatPauseSignal, { paused }));
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err; // never pinged yet: nothing runs
      }
    }
    return { id, status: row.status as string };
  });
}
