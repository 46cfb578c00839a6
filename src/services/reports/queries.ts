/**
 * The reads behind a report, each scoped to one workspace and one range of instants. Incidents
 * come back one row each with their first acknowledgement and first resolve taken from the
 * timeline (status_change entries), so the figures are computed in one pass over them.
 */
import type { Knex } from '@mikro-orm/postgresql';
import type { IncidentFact } from '../../domain/reports/report';

/** A workspace and the instants a report covers. */
export interface Scope {
  organizationId: string;
  start: Date;
  end: Date;
}

/** The driver may hand timestamps back as strings (the ORM's type parsers): always a Date. */
const instant = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string | Date));

/** The incidents opened in the range, oldest first, with `day` read in `zone`. */
export async function incidentFacts(db: Knex, scope: Scope, zone: string): Promise<IncidentFact[]> {
  const { rows } = (await db.raw(
    `select i.number, i.title, i.severity, i.status, i.created_at, t.acknowledged_at, t.resolved_at,
            i.service_id, s.name as service_name, coalesce(s.team_id, i.owning_team_id) as team_id, tm.name as team_name,
            to_char(i.created_at at time zone :zone, 'YYYY-MM-DD') as day
       from incidents i
       left join services s on s.id = i.service_id and s.organization_id = i.organization_id
       left join teams tm on tm.id = coalesce(s.team_id, i.owning_team_id)
       left join lateral (
         select min(e.created_at) filter (where e.to_status = 'ACKNOWLEDGED') as acknowledged_at,
                min(e.created_at) filter (where e.to_status = 'RESOLVED') as resolved_at
           from timeline_entries e
          where e.incident_id = i.id and e.organization_id = i.organization_id
            and e.type = 'status_change' and e.to_status in ('ACKNOWLEDGED', 'RESOLVED')
       ) t on true
      where i.organization_id = :org and i.created_at >= :start and i.created_at < :end
      order by i.created_at, i.number`,
    { org: scope.organizationId, start: scope.start, end: scope.end, zone },
  )) as { rows: Array<Record<string, unknown>> };
  return rows.map((r) => ({
    number: Number(r.number),
    title: r.title as string,
    severity: r.severity as IncidentFact['severity'],
    status: r.status as IncidentFact['status'],
    createdAt: instant(r.created_at)!,
    acknowledgedAt: instant(r.acknowledged_at),
    resolvedAt: instant(r.resolved_at),
    serviceId: (r.service_id as string | null) ?? null,
    serviceName: (r.service_name as string | null) ?? null,
    teamId: r.team_id as string,
    teamName: (r.team_name as string | null) ?? null,
    day: r.day as string,
  }));
}

/** Pages that went out (or were attempted): every notification but the skipped ones. */
const PAGES = `n.organization_id = :org and n.created_at >= :start and n.created_at < :end and n.status <> 'skipped'`;

/** Pages per channel, and how many of them failed; busiest first. */
export async function pagesByChannel(db: Knex, scope: Scope): Promise<Array<{ channel: string; pages: number; failed: number }>> {
  const { rows } = (await db.raw(
    `select n.channel, count(*)::int as pages, (count(*) filter (where n.status = 'failed'))::int as failed
       from notifications n where ${PAGES}
      group by n.channel order by pages desc, n.channel`,
    { org: scope.organizationId, start: scope.start, end: scope.end },
  )) as { rows: Array<{ channel: string; pages: number; failed: number }> };
  return rows;
}

/** The people paged in the range, with their own time zone (null: none set). */
export async function pagedPeople(db: Knex, scope: Scope): Promise<Array<{ userId: string; name: string | null; email: string; timeZone: string | null }>> {
  const { rows } = (await db.raw(
    `select u.id as "userId", u.name, u.email, u.time_zone as "timeZone"
       from users u where u.id in (select distinct n.user_id from notifications n where ${PAGES} and n.user_id is not null)`,
    { org: scope.organizationId, start: scope.start, end: scope.end },
  )) as { rows: Array<{ userId: string; name: string | null; email: string; timeZone: string | null }> };
  return rows;
}

/** Each person's pages counted by the hour of their own clock (`zones`: user id → IANA zone). */
export async function pagesByLocalHour(
  db: Knex,
  scope: Scope,
  zones: ReadonlyMap<string, string>,
): Promise<Array<{ userId: string; hour: number; pages: number }>> {
  if (zones.size === 0) return [];
  const people = JSON.stringify([...zones].map(([user_id, zone]) => ({ user_id, zone })));
  const { rows } = (await db.raw(
    `select n.user_id as "userId", extract(hour from n.created_at at time zone p.zone)::int as hour, count(*)::int as pages
       from notifications n
       join json_to_recordset(:people::json) as p(user_id uuid, zone text) on p.user_id = n.user_id
      where ${PAGES}
      group by 1, 2`,
    { org: scope.organizationId, start: scope.start, end: scope.end, people },
  )) as { rows: Array<{ userId: string; hour: number; pages: number }> };
  return rows;
}

/** Alerts received in the range. */
export async function alertCount(db: Knex, scope: Scope): Promise<number> {
  const [{ n }] = await db('alerts')
    .where({ organization_id: scope.organizationId })
    .andWhere('created_at', '>=', scope.start)
    .andWhere('created_at', '<', scope.end)
    .count({ n: '*' });
  return Number(n);
}

/** The sources that sent the most alerts in the range (a deleted source keeps its id). */
export async function noisySources(
  db: Knex,
  scope: Scope,
  limit: number,
): Promise<Array<{ source_id: string; source: string; service: string | null; alerts: number }>> {
  const { rows } = (await db.raw(
    `select a.source_id, coalesce(src.name, '(deleted source)') as source, sv.name as service, a.alerts
       from (select source_id, count(*)::int as alerts from alerts
              where organization_id = :org and created_at >= :start and created_at < :end
              group by source_id order by alerts desc, source_id limit :limit) a
       left join alert_sources src on src.id = a.source_id
       left join services sv on sv.id = src.service_id
      order by a.alerts desc, source`,
    { org: scope.organizationId, start: scope.start, end: scope.end, limit },
  )) as { rows: Array<{ source_id: string; source: string; service: string | null; alerts: number }> };
  return rows;
}

/** Pages sent in the range. */
export async function pageCount(db: Knex, scope: Scope): Promise<number> {
  const { rows } = (await db.raw(`select count(*)::int as n from notifications n where ${PAGES}`, {
    org: scope.organizationId,
    start: scope.start,
    end: scope.end,
  })) as {
    rows: Array<{ n: number }>;
  };
  return rows[0].n;
}

/** The reader's own time zone, if they set one. */
export async function readerZone(db: Knex, userId: string): Promise<string | null> {
  const row = (await db('users').where({ id: userId }).first('time_zone')) as { time_zone: string | null } | undefined;
  return row?.time_zone ?? null;
}
