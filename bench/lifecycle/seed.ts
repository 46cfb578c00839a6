import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { IncidentStatus } from '../../src/domain/incident-lifecycle';
import { SEVERITIES } from '../../src/domain/severity';
import type { IncidentSnapshot } from '../../src/contracts/workflows';
import { concurrently } from '../harness/concurrently';
import { authorization, incidentsPath, type BenchWorkspace } from '../harness/workspace';

/** Opens `count` incidents through POST /incidents (each starts its workflow), `concurrency` at a time. */
export async function createIncidentsViaApi(appUrl: string, ws: BenchWorkspace, count: number, concurrency = 10): Promise<IncidentSnapshot[]> {
  const created: IncidentSnapshot[] = [];
  await concurrently(count, concurrency, async (i) => {
    const res = await fetch(`${appUrl}${incidentsPath(ws)}`, {
      method: 'POST',
      headers: { ...authorization(ws), 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: `Bench incident ${i}`, severity: SEVERITIES[i % SEVERITIES.length], owning_team_id: ws.teamId }),
    });
    if (res.status !== 201) throw new Error(`creating an incident answered ${res.status}: ${await res.text()}`);
    created.push(((await res.json()) as { data: IncidentSnapshot }).data);
  });
  return created;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 1000; // 17 columns × 1000 rows stays under Postgres' 65,535 bind parameters

/** Mostly history (resolved, closed), some still open: roughly what a busy workspace holds. */
function statusFor(i: number): IncidentStatus {
  const r = (i * 7919) % 100;
  if (r < 10) return 'TRIGGERED';
  if (r < 15) return 'ACKNOWLEDGED';
  if (r < 20) return 'INVESTIGATING';
  if (r < 50) return 'RESOLVED';
  return 'CLOSED';
}

/**
 * Fills the workspace to `total` incidents by inserting projection rows directly (no
 * workflows): GET /incidents reads only Postgres, and 10,000 workflow starts would take
 * minutes. created_at spreads over the last 90 days; numbers continue the workspace's sequence.
 */
export async function fillIncidentProjections(orm: MikroORM, ws: BenchWorkspace, total: number): Promise<number> {
  const knex = orm.em.fork().getKnex();
  const [{ n: existing }] = await knex('incidents').where({ organization_id: ws.organizationId }).count({ n: '*' });
  const count = total - Number(existing);
  if (count <= 0) return 0;
  const now = Date.now();
  await knex.transaction(async (trx) => {
    const [{ incident_seq: end }] = await trx('organizations').where({ id: ws.organizationId }).increment('incident_seq', count).returning('incident_seq');
    for (let start = 0; start < count; start += BATCH) {
      const rows = [];
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        // Older than the API-created incidents, spread over 90 days with a little jitter.
        const created = new Date(now - 60_000 - (i / count) * 90 * DAY_MS - ((i * 104729) % 3_600_000));
        rows.push(projectionRow(ws, end - count + 1 + i, statusFor(i), created, i));
      }
      await trx('incidents').insert(rows);
    }
  });
  await knex.raw('ANALYZE incidents');
  return count;
}

function projectionRow(ws: BenchWorkspace, number: number, status: IncidentStatus, created: Date, i: number) {
  const later = (minutes: number) => new Date(created.getTime() + minutes * 60_000);
  const acked = status !== 'TRIGGERED';
  const resolved = status === 'RESOLVED' || status === 'CLOSED';
  return {
    id: randomUUID(),
    organization_id: ws.organizationId,
    number,
    service_id: null,
    owning_team_id: ws.teamId,
    title: `Seeded incident ${number}`,
    description: i % 3 === 0 ? `Seeded for the GET /incidents benchmark (${i})` : null,
    severity: SEVERITIES[(i * 31) % SEVERITIES.length],
    status,
    dedup_key: null,
    alert_count: 1 + (i % 4),
    last_seq: 0, // no timeline entries: these rows never had a workflow
    created_at: created,
    acknowledged_at: acked ? later(3) : null,
    resolved_at: resolved ? later(45) : null,
    closed_at: status === 'CLOSED' ? later(120) : null,
    updated_at: resolved ? later(status === 'CLOSED' ? 120 : 45) : acked ? later(3) : created,
  };
}
