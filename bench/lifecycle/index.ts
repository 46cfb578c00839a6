/**
 * The customer API phase: lifecycle updates (acknowledge → investigate → resolve → reopen) through
 * POST /incidents/{id}/{operation} and as bare Temporal Updates, and GET /incidents on a workspace
 * of 10,000 incidents, each at several concurrencies. One workspace serves both: the incidents
 * whose workflows the updates drive are among those the list pages through.
 */
import type { IncidentStatus } from '../../src/domain/incident-lifecycle';
import type { LoadShape } from '../harness/load';
import { IncidentPool } from '../harness/pool';
import type { Figure } from '../harness/report';
import type { BenchStack, Say } from '../harness/stack';
import type { BenchWorkspace } from '../harness/workspace';
import { benchListIncidents, checkListPage } from './list';
import { createIncidentsViaApi, fillIncidentProjections } from './seed';
import { benchLifecycleApi, benchRawUpdate } from './updates';

/**
 * Each figure at several fixed concurrencies: 1 (the bare round trip), 4 (the level the targets
 * are judged at: a busy on-call team, not a flood) and 10 (past what 2 cores sustain, so latency
 * there is mostly queueing; its req/s column is the throughput ceiling).
 */
const CONCURRENCIES = [1, 4, 10] as const;
const JUDGED_AT = 4;
/** Incidents with a running workflow, cycled through by the lifecycle figures. */
export const LIVE_INCIDENTS = 200;
export const LISTED_INCIDENTS = 10_000;

const shape = (concurrency: number, durationS: number, warmup: number): LoadShape => ({ concurrency, durationS, warmup });

/** GET /incidents and lifecycle updates: their figures, and how they were taken. */
export async function benchLifecycle(stack: BenchStack, ws: BenchWorkspace, say: Say): Promise<{ figures: Figure[]; notes: string[] }> {
  say(`Opening ${LIVE_INCIDENTS} incidents through POST /incidents (one workflow each)`);
  const live = await createIncidentsViaApi(stack.appUrl, ws, LIVE_INCIDENTS);
  const pool = new IncidentPool(async (id) => {
    const row = await stack.orm.em.fork().getKnex()('incidents').select('status').where({ id }).first();
    return row?.status as IncidentStatus | undefined;
  });
  for (const incident of live) pool.give(incident.id, incident.status);

  const inserted = await fillIncidentProjections(stack.orm, ws, LISTED_INCIDENTS);
  say(`Inserted ${inserted} projection rows: the workspace holds ${LISTED_INCIDENTS} incidents`);
  await checkListPage(stack.appUrl, ws, '', 25);
  await checkListPage(stack.appUrl, ws, '?status=TRIGGERED&limit=100', 100);

  const figures: Figure[] = [];
  const judged = (c: number) => c === JUDGED_AT;
  for (const c of CONCURRENCIES) {
    say(`GET /incidents at ${c} connection(s)`);
    const list = await benchListIncidents(stack.appUrl, ws, '', shape(c, 6, 200));
    figures.push({ key: `list_incidents_10k_c${c}_ms`, label: `GET /incidents (10k), c=${c}`, run: list, ...(judged(c) ? { target: { p99: 20 } } : {}) });
  }
  say('GET /incidents?status=TRIGGERED&limit=100 at 4 connections');
  const filtered = await benchListIncidents(stack.appUrl, ws, '?status=TRIGGERED&limit=100', shape(4, 5, 100));
  figures.push({ key: 'list_incidents_10k_triggered_limit100_c4_ms', label: 'GET /incidents?status=TRIGGERED&limit=100, c=4', run: filtered });
  for (const c of CONCURRENCIES) {
    say(`Lifecycle updates through the API at ${c} connection(s)`);
    const lifecycle = await benchLifecycleApi(stack.appUrl, ws, pool, shape(c, 8, 20 * c));
    figures.push({
      key: `lifecycle_update_c${c}_ms`,
      label: `lifecycle update (API), c=${c}`,
      run: lifecycle,
      ...(judged(c) ? { target: { p50: 50, p99: 150 } } : {}),
    });
  }
  for (const c of [1, 10]) {
    say(`Bare Temporal updates on the same workflows at ${c} concurrent call(s)`);
    const raw = await benchRawUpdate(stack.temporal, pool, shape(c, 6, 10 * c));
    figures.push({
      key: `temporal_update_raw_c${c}_ms`,
      label: `bare Temporal update, c=${c}`,
      run: raw,
      ...(c === 1 ? { reference: { p50: 11, p99: 37 } } : {}),
    });
  }
  return { figures, notes: notesOf(inserted) };
}

function notesOf(inserted: number): string[] {
  return [
    `API figures at ${CONCURRENCIES.join(', ')} connections (concurrent calls for the bare update); targets are judged at ${JUDGED_AT}.`,
    `Lifecycle: every request is a real state change (acknowledge → investigate → resolve → reopen → …) over ${LIVE_INCIDENTS} incidents with running workflows; no incident has two requests in flight. wrong_status counts 2xx answers whose status was not the one the operation produces.`,
    'Bare Temporal update: client.workflow.getHandle().executeUpdate() on the same workflows and cycle, no HTTP. It includes the handler\'s projection activity (one Postgres transaction) and the search-attribute upsert; the API adds HTTP, the token check and a projection read (a plain Update; Update-with-Start only when no run is open). The 11 ms / 37 ms reference (docs/architecture.md, "Temporal") is an Update that answers without an activity.',
    `GET /incidents: ${LISTED_INCIDENTS} incidents in the workspace, of which ${inserted} inserted as projection rows by bulk SQL (no workflows) and then ANALYZEd; the list endpoint reads only Postgres. Default page (limit 25), newest first.`,
  ];
}
