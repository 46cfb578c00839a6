import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, WorkflowNotFoundError, type UpdateDefinition } from '@temporalio/common';
import { decideTransition, type IncidentStatus, type LifecycleOperation } from '../../domain/incident-lifecycle';
import type { Severity } from '../../domain/severity';
import {
  incidentWorkflowId,
  INVALID_TRANSITION,
  lifecycleUpdates,
  type Actor,
  type IncidentSnapshot,
  type IncidentWorkflowInput,
  type LifecycleUpdateInput,
} from '../../contracts/workflows';
import { isUuid } from '../../domain/ids';
import { knexOf } from '../../db/knex';
import { incidentStartOptions } from './workflow-start';
import { TEMPORAL_UPDATE_MS, withinDeadline } from '../../temporal/deadline';
import { conflict, invalid, notFound } from '../errors';
import { INCIDENT_COLUMNS, toSnapshot, type IncidentRow } from './view';
import { teamBelongsTo } from '../workspace/workspaces';
import { openAndStart } from './opening';

/** What incident use cases need: the database and Temporal, with its task queue. */
export interface IncidentDeps {
  orm: MikroORM;
  temporal: Client;
  taskQueue: string;
  /** AUTO_CLOSE_HOURS, given to the workflows these start. */
  autoCloseHours?: number;
  /**
   * A client on the connection of a worker polling `taskQueue` in this process, when there is
   * one: new incidents start eagerly on it (their first workflow task skips the task queue).
   */
  eagerClient?: Client;
}

export interface CreateIncidentInput {
  organizationId: string;
  title: string;
  description?: string | null;
  severity: Severity;
  owningTeamId: string;
  serviceId?: string | null;
  actor: Actor;
}

const workflowInput = (row: IncidentRow & { last_seq: number }): IncidentWorkflowInput => ({
  incidentId: row.id,
  organizationId: row.organization_id,
  serviceId: row.service_id,
  severity: row.severity,
  status: row.status,
  seq: row.last_seq,
});

/**
 * Opens an incident: the projection row (with its per-workspace number), its first timeline entry
 * and an outbox message commit together, then its workflow starts; the answer comes once it is
 * running. With Temporal away the incident is taken back and the error says so (503): it either
 * pages or was never there (opening.ts).
 */
export async function createIncident(deps: IncidentDeps, input: CreateIncidentInput): Promise<IncidentSnapshot> {
  if (!(await teamBelongsTo(deps.orm, input.organizationId, input.owningTeamId))) {
    throw invalid(`owning_team_id ${input.owningTeamId} is not a team of this workspace`);
  }
  const target = {
    temporal: deps.eagerClient ?? deps.temporal,
    taskQueue: deps.taskQueue,
    eagerStart: deps.eagerClient !== undefined,
    autoCloseHours: deps.autoCloseHours,
  };
  const row = await openAndStart(
    { orm: deps.orm, target },
    {
      id: randomUUID(),
      organizationId: input.organizationId,
      serviceId: input.serviceId ?? null,
      owningTeamId: input.owningTeamId,
      title: input.title,
      description: input.description ?? null,
      severity: input.severity,
      dedupKey: null,
      alertCount: 0,
      actor: input.actor,
      openedBy: null,
    },
  );
  return toSnapshot(row);
}

async function readRow(deps: { orm: MikroORM }, organizationId: string, incidentId: string) {
  if (!isUuid(incidentId)) throw notFound(`incident ${incidentId} not found`);
  const row = await knexOf(deps.orm)('incidents')
    .select([...INCIDENT_COLUMNS, 'last_seq'])
    .where({ id: incidentId, organization_id: organizationId })
    .first();
  if (!row) throw notFound(`incident ${incidentId} not found`);
  return row as IncidentRow & { last_seq: number };
}

/** One incident of this workspace; another workspace's incident is simply not found. */
export async function getIncident(deps: { orm: MikroORM }, organizationId: string, incidentId: string) {
  return toSnapshot(await readRow(deps, organizationId, incidentId));
}

/**
 * Applies a lifecycle operation through the incident's workflow (a Workflow Update, so the
 * answer is the committed new state). A closed incident's workflow has completed: the update
 * starts a fresh run seeded from the projection, which is how reopen works after close.
 */
export async function transitionIncident(
  deps: IncidentDeps,
  input: { organizationId: string; incidentId: string; operation: LifecycleOperation; actor: Actor },
): Promise<IncidentSnapshot> {
  const row = await readIncidentRow(deps, input.organizationId, input.incidentId);
  const early = decideTransition(row.status, input.operation);
  // A closed incident has no running workflow: refuse without starting one just to say no.
  if (early.kind === 'invalid' && row.status === 'CLOSED') throw conflict(early.message, 'invalid_transition');
  return runIncidentUpdate(deps, row, lifecycleUpdates[input.operation], (answerBy) => ({ actor: input.actor, answerBy }));
}

/** An incident's row with its last seq, as the workflow starts from it; 404 outside the workspace. */
export const readIncidentRow = readRow;

/**
 * Runs one Update on the incident's workflow and maps its refusals: `InvalidTransition` → 409
 * invalid_transition, `InvalidArgument` → 400. `arg` gets the caller's deadline (`answerBy`).
 */
export async function runIncidentUpdate<Ret, Arg extends LifecycleUpdateInput>(
  deps: IncidentDeps,
  row: IncidentRow & { last_seq: number },
  update: UpdateDefinition<Ret, [Arg]>,
  arg: (answerBy: string) => Arg,
): Promise<Ret> {
  try {
    return await applyUpdate(deps, row, update, arg);
  } catch (err) {
    const failure = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    // An activity's refusal (a write that found the incident changed) reaches here inside its ActivityFailure.
    const cause = failure instanceof ActivityFailure ? failure.cause : failure;
    if (cause instanceof ApplicationFailure && cause.type === INVALID_TRANSITION) throw conflict(cause.message, 'invalid_transition');
    if (cause instanceof ApplicationFailure && cause.type === 'InvalidArgument') throw invalid(cause.message);
    throw err;
  }
}

/**
 * A plain Update on the running workflow; when there is none (closed, or its start was lost),
 * Update-with-Start seeds a fresh run from the projection. The plain path is the common one and
 * the cheaper of the two.
 */
async function applyUpdate<Ret, Arg extends LifecycleUpdateInput>(
  deps: IncidentDeps,
  row: IncidentRow & { last_seq: number },
  update: UpdateDefinition<Ret, [Arg]>,
  arg: (answerBy: string) => Arg,
): Promise<Ret> {
  // A deadline: with Temporal away, or the workflow stuck behind a write Postgres cannot take,
  // the caller hears 503 instead of waiting; the workflow moves nothing it cannot write by then.
  const args: [Arg] = [arg(new Date(Date.now() + TEMPORAL_UPDATE_MS).toISOString())];
  return withinDeadline(deps.temporal, TEMPORAL_UPDATE_MS, async () => {
    if (row.status !== 'CLOSED') {
      try {
        return await deps.temporal.workflow.getHandle(incidentWorkflowId(row.id)).executeUpdate(update, { args });
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    }
    const start = new WithStartWorkflowOperation('incidentWorkflow', {
      ...incidentStartOptions(deps.taskQueue, workflowInput(row), deps.autoCloseHours),
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return deps.temporal.workflow.executeUpdateWithStart(update, { args, startWorkflowOperation: start });
  });
}

export interface ListIncidentsQuery {
  organizationId: string;
  status?: IncidentStatus;
  severity?: Severity;
  serviceId?: string;
  /** Only incidents that paged this person (the dashboard's "assigned to me"). */
  pagedUserId?: string;
  /** Only incidents owned by a team this person is in ("my teams"). */
  teamMemberUserId?: string;
  limit: number;
  cursor?: string;
}

interface Cursor {
  createdAt: string;
  id: string;
}

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');

function decodeCursor(raw: string): Cursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt)) && typeof id === 'string' && isUuid(id)) {
      return { createdAt, id };
    }
  } catch {
    // fall through to the error below
  }
  throw invalid('cursor is not one this API returned');
}

/** The filters every incident query shares (status aside: counts are per status). */
function filtered(deps: { orm: MikroORM }, q: Omit<ListIncidentsQuery, 'limit' | 'cursor' | 'status'>) {
  const db = knexOf(deps.orm);
  const query = db('incidents as i').where({ 'i.organization_id': q.organizationId });
  if (q.severity) query.andWhere({ 'i.severity': q.severity });
  if (q.serviceId) query.andWhere({ 'i.service_id': q.serviceId });
  if (q.pagedUserId) query.whereExists(db('notifications as n').select(db.raw('1')).whereRaw('n.incident_id = i.id').andWhere({ 'n.user_id': q.pagedUserId }));
  if (q.teamMemberUserId) query.whereIn('i.owning_team_id', db('team_members').select('team_id').where({ user_id: q.teamMemberUserId }));
  return query;
}

/** How many incidents each status holds under the same filters (the dashboard's tabs). */
export async function countIncidentsByStatus(
  deps: { orm: MikroORM },
  q: Omit<ListIncidentsQuery, 'limit' | 'cursor' | 'status'>,
): Promise<Record<string, number>> {
  const rows = (await filtered(deps, q).select('i.status').count({ n: '*' }).groupBy('i.status')) as Array<{ status: string; n: string }>;
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Newest first, keyset-paged on (created_at, id) so pages stay stable while incidents open. */
export async function listIncidents(deps: { orm: MikroORM }, q: ListIncidentsQuery) {
  const query = filtered(deps, q)
    .select(INCIDENT_COLUMNS.map((c) => `i.${c}`))
    .orderBy([
      { column: 'i.created_at', order: 'desc' },
      { column: 'i.id', order: 'desc' },
    ])
    .limit(q.limit + 1);
  if (q.status) query.andWhere({ 'i.status': q.status });
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    query.andWhereRaw('(i.created_at, i.id) < (?, ?)', [new Date(c.createdAt), c.id]);
  }
  const rows = (await query) as IncidentRow[];
  const page = rows.slice(0, q.limit).map(toSnapshot);
  const last = page[page.length - 1];
  const nextCursor = rows.length > q.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null;
  return { incidents: page, nextCursor };
}
