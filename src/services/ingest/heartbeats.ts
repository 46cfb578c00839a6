import { randomUUID } from 'node:crypto';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { hashSecret } from '../../domain/api-token';
import { isUuid, looksLikeUrlSecret, newUrlSecret } from '../../domain/ids';
import { heartbeatPauseSignal, heartbeatPingSignal, heartbeatWorkflowId, type HeartbeatWorkflowInput } from '../../contracts/workflows';
import { getService, workspaceOfService } from '../workspace/catalog';
import { recordAudit, type AuditActor } from '../audit';
import { knexOf } from '../../db/knex';
import { iso, isoOrNull } from '../../db/timestamps';
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

/** A heartbeat as reads show it: never its ping URL (only its hash is kept). */
export interface HeartbeatJson extends HeartbeatRow {
  last_ping_at: string | null;
  created_at: string;
}

const READ_COLUMNS = [...COLUMNS, 'last_ping_at', 'created_at'];
const heartbeatJson = (r: HeartbeatRow & { last_ping_at: Date | string | null; created_at: Date | string }): HeartbeatJson => ({
  id: r.id,
  name: r.name,
  service_id: r.service_id,
  period_seconds: r.period_seconds,
  grace_seconds: r.grace_seconds,
  status: r.status,
  last_ping_at: isoOrNull(r.last_ping_at),
  created_at: iso(r.created_at),
});

/** The workspace's heartbeats, oldest first. */
export async function listHeartbeats(orm: MikroORM, organizationId: string): Promise<HeartbeatJson[]> {
  const rows = await knexOf(orm)('heartbeats')
    .select(READ_COLUMNS)
    .where({ organization_id: organizationId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  return rows.map(heartbeatJson);
}

/** One of the workspace's heartbeats; another workspace's, or a bad id, is not found. */
export async function getHeartbeat(orm: MikroORM, organizationId: string, id: string): Promise<HeartbeatJson> {
  const row = isUuid(id) ? await knexOf(orm)('heartbeats').select(READ_COLUMNS).where({ id, organization_id: organizationId }).first() : undefined;
  if (!row) throw notFound(`heartbeat ${id} not found`);
  return heartbeatJson(row);
}

/**
 * Creates a heartbeat on a service; its ping URL (a credential) is returned this once. With
 * `organizationId`, a service of another workspace is not found; with `audit`, the
 * `heartbeat.create` entry lands in the same transaction. Its workflow starts on the first ping.
 */
export async function createHeartbeat(
  orm: MikroORM,
  input: { serviceId: string; name: string; periodSeconds: number; graceSeconds: number; ingestBaseUrl: string; organizationId?: string },
  audit?: AuditActor,
) {
  if (input.organizationId) await getService(orm, input.organizationId, input.serviceId);
  const organizationId = input.organizationId ?? (await workspaceOfService(orm, input.serviceId));
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
  await knexOf(orm).transaction(async (trx) => {
    await trx('heartbeats').insert(row);
    if (audit) {
      const details = { name: row.name, service_id: row.service_id, period_seconds: row.period_seconds, grace_seconds: row.grace_seconds };
      await recordAudit(trx, { organizationId, actor: audit, action: 'heartbeat.create', targetType: 'heartbeat', targetId: row.id, details });
    }
  });
  return {
    id: row.id,
    name: row.name,
    service_id: row.service_id,
    period_seconds: row.period_seconds,
    grace_seconds: row.grace_seconds,
    status: row.status,
    ping_url: `${input.ingestBaseUrl}/ping/${secret}`,
  };
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
    const [row] = (await trx('heartbeats')
      .update({ last_ping_at: new Date() })
      .where({ token_hash: hashSecret(secret) })
      .returning(COLUMNS)) as HeartbeatRow[];
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

/**
 * Pauses or resumes: the row, and the workflow if it runs (a paused heartbeat opens nothing); both
 * or neither. With `organizationId`, another workspace's heartbeat is not found; with `audit`, a
 * change (not a repeat) records `heartbeat.pause` or `heartbeat.resume` in the same transaction.
 */
export async function setHeartbeatPaused(
  orm: MikroORM,
  temporal: Client | undefined,
  id: string,
  paused: boolean,
  opts: { organizationId?: string; audit?: AuditActor } = {},
) {
  if (!isUuid(id)) throw invalid('heartbeat id must be a UUID');
  const status = paused ? 'PAUSED' : 'ACTIVE';
  return knexOf(orm).transaction(async (trx) => {
    const before = await trx('heartbeats')
      .select('id', 'name', 'organization_id', 'status')
      .where({ id, ...(opts.organizationId && { organization_id: opts.organizationId }) })
      .forUpdate()
      .first();
    if (!before) throw notFound(`heartbeat ${id} not found`);
    await trx('heartbeats').update({ status }).where({ id });
    if (temporal) {
      try {
        await withinDeadline(temporal, TEMPORAL_CALL_MS, () => temporal.workflow.getHandle(heartbeatWorkflowId(id)).signal(heartbeatPauseSignal, { paused }));
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err; // never pinged yet: nothing runs
      }
    }
    if (opts.audit && before.status !== status) {
      await recordAudit(trx, {
        organizationId: before.organization_id,
        actor: opts.audit,
        action: paused ? 'heartbeat.pause' : 'heartbeat.resume',
        targetType: 'heartbeat',
        targetId: id,
        details: { name: before.name },
      });
    }
    return { id, status };
  });
}

/** Ends a heartbeat's workflow, if one runs (it starts on the first ping). */
async function stopWorkflow(temporal: Client | undefined, id: string): Promise<void> {
  if (!temporal) return;
  try {
    await withinDeadline(temporal, TEMPORAL_CALL_MS, () => temporal.workflow.getHandle(heartbeatWorkflowId(id)).terminate('heartbeat deleted'));
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err; // never pinged, or already ended
  }
}

/**
 * Deletes a heartbeat: its ping URL answers 404 and its workflow is stopped, both or neither (the
 * workflow is stopped before the row's deletion commits; with Temporal away nothing changes). An
 * open missed-check-in incident stays, for people to resolve.
 */
export async function deleteHeartbeat(orm: MikroORM, temporal: Client | undefined, input: { organizationId: string; id: string }, audit?: AuditActor) {
  if (!isUuid(input.id)) throw notFound(`heartbeat ${input.id} not found`);
  return knexOf(orm).transaction(async (trx) => {
    const [row] = await trx('heartbeats').delete().where({ id: input.id, organization_id: input.organizationId }).returning(['id', 'name', 'service_id']);
    if (!row) throw notFound(`heartbeat ${input.id} not found`);
    await stopWorkflow(temporal, row.id);
    if (audit)
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actor: audit,
        action: 'heartbeat.delete',
        targetType: 'heartbeat',
        targetId: row.id,
        details: { name: row.name, service_id: row.service_id },
      });
    return { id: row.id as string, deleted: true as const };
  });
}

/** Deletes every heartbeat of a service (the service is being deleted), in the caller's transaction, stopping their workflows; how many. */
export async function deleteHeartbeatsOfService(trx: Knex.Transaction, temporal: Client | undefined, serviceId: string): Promise<number> {
  const rows: Array<{ id: string }> = await trx('heartbeats').delete().where({ service_id: serviceId }).returning(['id']);
  for (const { id } of rows) await stopWorkflow(temporal, id);
  return rows.length;
}
