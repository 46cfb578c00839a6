/** A report's figures, computed in one pass over the range's incidents. Pure. */
import { INCIDENT_STATUSES, type IncidentStatus } from '../incident-lifecycle';
import { SEVERITIES, type Severity } from '../severity';
import { summarise } from './durations';
import type { IncidentFact, IncidentRow, NightPages, ServicePerformance, TeamPerformance } from './report';

const seconds = (from: Date, to: Date | null): number | null => (to ? (to.getTime() - from.getTime()) / 1000 : null);

const NO_SERVICE = '(no service)';
const UNNAMED_TEAM = '(deleted team)';

interface Group {
  incidents: number;
  tta: number[];
  ttr: number[];
}
const newGroup = (): Group => ({ incidents: 0, tta: [], ttr: [] });
const add = (group: Group, tta: number | null, ttr: number | null) => {
  group.incidents += 1;
  if (tta !== null) group.tta.push(tta);
  if (ttr !== null) group.ttr.push(ttr);
};

/** The incident figures of a range, in one pass: overall, per service, per team, per day, counts. */
export function aggregateIncidents(facts: readonly IncidentFact[], days: readonly string[]) {
  const overall = newGroup();
  const services = new Map<string, Group & { serviceId: string | null; service: string; teamId: string; team: string }>();
  const teams = new Map<string, Group & { team: string }>();
  const severity = new Map<Severity, number>(SEVERITIES.map((s) => [s, 0]));
  const status = new Map<IncidentStatus, number>(INCIDENT_STATUSES.map((s) => [s, 0]));
  const perDay = new Map<string, number>(days.map((d) => [d, 0]));
  const rows: IncidentRow[] = [];
  let open = 0;
  for (const f of facts) {
    const tta = seconds(f.createdAt, f.acknowledgedAt);
    const ttr = seconds(f.createdAt, f.resolvedAt);
    add(overall, tta, ttr);
    const serviceKey = `${f.serviceId ?? ''}/${f.teamId}`;
    let service = services.get(serviceKey);
    if (!service)
      services.set(
        serviceKey,
        (service = { ...newGroup(), serviceId: f.serviceId, service: f.serviceName ?? NO_SERVICE, teamId: f.teamId, team: f.teamName ?? UNNAMED_TEAM }),
      );
    add(service, tta, ttr);
    let team = teams.get(f.teamId);
    if (!team) teams.set(f.teamId, (team = { ...newGroup(), team: f.teamName ?? UNNAMED_TEAM }));
    add(team, tta, ttr);
    severity.set(f.severity, (severity.get(f.severity) ?? 0) + 1);
    status.set(f.status, (status.get(f.status) ?? 0) + 1);
    if (perDay.has(f.day)) perDay.set(f.day, perDay.get(f.day)! + 1);
    if (f.status !== 'RESOLVED' && f.status !== 'CLOSED') open += 1;
    rows.push({
      number: f.number,
      title: f.title,
      service: f.serviceName,
      severity: f.severity,
      status: f.status,
      created_at: f.createdAt.toISOString(),
      acknowledged_at: f.acknowledgedAt?.toISOString() ?? null,
      resolved_at: f.resolvedAt?.toISOString() ?? null,
      tta: tta === null ? null : Math.round(tta * 1000) / 1000,
      ttr: ttr === null ? null : Math.round(ttr * 1000) / 1000,
    });
  }
  const byName =
    <T extends { incidents: number }>(name: (t: T) => string) =>
    (a: T, b: T) =>
      b.incidents - a.incidents || name(a).localeCompare(name(b));
  return {
    counts: { incidents: overall.incidents, acknowledged: overall.tta.length, resolved: overall.ttr.length, open },
    mtta: summarise(overall.tta),
    mttr: summarise(overall.ttr),
    by_severity: [...severity].map(([s, count]) => ({ severity: s, count })),
    by_status: [...status].map(([s, count]) => ({ status: s, count })),
    incidents_per_day: [...perDay].map(([day, count]) => ({ day, count })),
    per_service: [...services.values()]
      .map((g): ServicePerformance => ({
        service_id: g.serviceId,
        service: g.service,
        team_id: g.teamId,
        team: g.team,
        incidents: g.incidents,
        mtta: summarise(g.tta),
        mttr: summarise(g.ttr),
      }))
      .sort(byName((s) => s.service)),
    per_team: [...teams]
      .map(([teamId, g]): TeamPerformance => ({ team_id: teamId, team: g.team, incidents: g.incidents, mtta: summarise(g.tta), mttr: summarise(g.ttr) }))
      .sort(byName((t) => t.team)),
    incidents: rows,
  };
}

/** Night pages per person from their pages counted by local hour: most night pages first. */
export function nightPagesOf(
  people: ReadonlyArray<{ userId: string; name: string | null; email: string; zone: string }>,
  byHour: ReadonlyArray<{ userId: string; hour: number; pages: number }>,
  isNight: (hour: number) => boolean,
): NightPages[] {
  const out = new Map<string, NightPages>(
    people.map((p) => [p.userId, { user_id: p.userId, name: p.name, email: p.email, time_zone: p.zone, pages: 0, night_pages: 0 }]),
  );
  for (const h of byHour) {
    const person = out.get(h.userId);
    if (!person) continue;
    person.pages += h.pages;
    if (isNight(h.hour)) person.night_pages += h.pages;
  }
  return [...out.values()].sort((a, b) => b.night_pages - a.night_pages || b.pages - a.pages || a.email.localeCompare(b.email));
}
