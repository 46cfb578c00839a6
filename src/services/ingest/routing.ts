import { randomUUID } from 'node:crypto';
import type { Knex } from '@mikro-orm/postgresql';
import type { IngestItem } from '../../domain/ingest/plan';
import { INGEST_ACTOR } from '../../contracts/workflows';
import { prepareIncidentBatch, type IncidentOpening } from '../incident/store';
import { closeAlertsOfOpenIncident } from '../incident/alerts-closed';
import type { Grouping } from '../../domain/grouping/match';
import type { StormSetting } from '../../domain/grouping/storm';

/** Statuses an incident can take new alerts in (docs/architecture.md, "Ingestion": "its open incident"). */
export const OPEN_STATUSES = ['TRIGGERED', 'ACKNOWLEDGED', 'INVESTIGATING'];

/** Where an alert comes from (an alert source, or a heartbeat), and the service it routes to. */
export type SourceRef = {
  id: string;
  organizationId: string;
  serviceId: string;
  /** The service's owning team: owns new incidents. */ teamId: string;
  /** Its storm guard (docs/grouping.md, "Storm guard"); null or absent: none. */
  storm?: StormSetting | null;
  name?: string;
};

/** One triggering alert to store: its source, what it says, and its id (the event id). */
export interface TriggerRow {
  source: SourceRef;
  item: IngestItem;
  eventId: string;
  /** The grouping rule the alert falls under and its key (docs/grouping.md); absent: none. */
  grouping?: Grouping | null;
}

/** A new incident a batch opens: its first alert decides title, severity and dedup key. */
interface NewIncident {
  id: string;
  opener: TriggerRow;
  alerts: number;
  /** A grouped incident's rule and key, or the source whose storm incident it is. */
  group?: { rule: string; key: string } | null;
  stormOf?: { source: SourceRef; setting: StormSetting } | null;
}

const pairKey = (serviceId: string, dedupKey: string) => `${serviceId}:${dedupKey}`;
const json = (rows: unknown) => JSON.stringify(rows);

/**
 * Stores triggering alerts, in order, on the incidents they route to, and queues their delivery
 * to the workflows: an alert with a dedup_key joins its service's open incident with that key
 * (or the one an earlier alert of the same batch opened); otherwise it opens a new incident.
 * A fixed number of statements whatever the batch size. Returns each row's incident, and whether
 * the row opened it.
 *
 * The caller holds the dedup-key locks of the rows (lockDedupKeys), so fifty same-key alerts at
 * once, from any number of API processes, still make one incident.
 */
export async function storeTriggers(trx: Knex.Transaction, rows: TriggerRow[], now = new Date()): Promise<Array<{ incidentId: string; opened: boolean }>> {
  const open = await findOpen(trx, rows);
  const groups = await findOpenGroups(trx, rows, now);
  const storms = await stormStates(trx, rows, now);
  const incidentOf: string[] = [];
  const fresh = new Map<string, NewIncident>();
  const attachCounts = new Map<string, number>();
  const outbox: Array<{ id: string; incident_id: string; event_id: string; kind: 'opened' | 'attached'; created_at: Date }> = [];
  for (const row of rows) {
    const pair = row.item.dedupKey === null ? null : pairKey(row.source.serviceId, row.item.dedupKey);
    const existing = pair === null ? undefined : open.get(pair);
    let incidentId: string;
    let kind: 'opened' | 'attached';
    if (existing) {
      incidentId = existing;
      kind = 'attached';
      if (fresh.has(incidentId)) fresh.get(incidentId)!.alerts++;
      else attachCounts.set(incidentId, (attachCounts.get(incidentId) ?? 0) + 1);
    } else {
      const group = row.grouping ? groupLookup(row.source.serviceId, row.grouping) : null;
      const joined = (group !== null ? groups.get(group) : undefined) ?? stormIncidentFor(storms.get(row.source.id));
      if (joined) {
        incidentId = joined;
        kind = 'attached';
        if (fresh.has(incidentId)) fresh.get(incidentId)!.alerts++;
        else attachCounts.set(incidentId, (attachCounts.get(incidentId) ?? 0) + 1);
      } else {
        incidentId = randomUUID();
        kind = 'opened';
        const storm = storms.get(row.source.id);
        const stormOf = storm && storm.opened >= storm.setting.max_new_incidents ? { source: row.source, setting: storm.setting } : null;
        const grouped = stormOf === null && row.grouping ? { rule: row.grouping.rule.name, key: row.grouping.key } : null;
        fresh.set(incidentId, { id: incidentId, opener: row, alerts: 1, group: grouped, stormOf });
        if (storm) {
          storm.opened++;
          if (stormOf) storm.incident = incidentId;
        }
        if (pair !== null) open.set(pair, incidentId);
        if (group !== null && grouped) groups.set(group, incidentId);
      }
    }
    incidentOf.push(incidentId);
    outbox.push({ id: randomUUID(), incident_id: incidentId, event_id: row.eventId, kind, created_at: now });
  }
  const incidentWrites = await prepareIncidentBatch(
    trx,
    { opened: [...fresh.values()].map(openingOf), alertsAdded: [...attachCounts].map(([incidentId, count]) => ({ incidentId, count })) },
    now,
  );
  await trx.raw(`with ${incidentWrites.ctes}, ${ALERT_WRITES}`, {
    ...incidentWrites.bindings,
    alerts: json(rows.map((r, i) => alertRow(r, incidentOf[i], now))),
    outbox: json(outbox),
  });
  return incidentOf.map((incidentId, i) => ({ incidentId, opened: outbox[i].kind === 'opened' }));
}

/**
 * Takes the dedup-key locks of a batch's alerts (triggers and resolves alike), in one sorted
 * order, so two batches cannot deadlock: routing decisions on a key are serialised across
 * batches and API processes. Held until the transaction ends.
 */
export async function lockDedupKeys(trx: Knex.Transaction, keys: Array<{ serviceId: string; dedupKey: string | null }>, others: string[] = []): Promise<void> {
  const pairs = new Set<string>(others);
  for (const { serviceId, dedupKey } of keys) if (dedupKey !== null) pairs.add(pairKey(serviceId, dedupKey));
  if (pairs.size === 0) return;
  // ORDER BY in a subquery keeps Postgres from flattening it: locks are taken in that order.
  await trx.raw(
    `select pg_advisory_xact_lock(h) from (select distinct hashtextextended(k, 0) as h from json_array_elements_text(?::json) as k order by h) as sorted`,
    [json([...pairs])],
  );
}

/**
 * Each key's incident that still takes alerts: open, and not about to be resolved by its sender
 * (a resolve of its last active alert is queued; a re-fire after it is a new incident).
 */
async function findOpen(trx: Knex.Transaction, rows: TriggerRow[]): Promise<Map<string, string>> {
  const pairs = new Map<string, { s: string; k: string }>();
  for (const { source, item } of rows) {
    if (item.dedupKey !== null) pairs.set(pairKey(source.serviceId, item.dedupKey), { s: source.serviceId, k: item.dedupKey });
  }
  const open = new Map<string, string>();
  if (pairs.size === 0) return open;
  // One index probe per key (LATERAL … LIMIT 1): a set-based join would let the planner, which
  // guesses 100 rows for json_to_recordset, scan every incident of the workspace instead.
  const { rows: found } = (await trx.raw(
    `select p.s as service_id, p.k as dedup_key, o.id from json_to_recordset(?::json) as p(s uuid, k text)
     cross join lateral (
       select id from incidents where service_id = p.s and dedup_key = p.k and status in (${OPEN_STATUSES.map(() => '?').join(', ')}) and alerts_closed_at is null
       order by created_at desc limit 1
     ) as o`,
    [json([...pairs.values()]), ...OPEN_STATUSES],
  )) as { rows: Array<{ id: string; service_id: string; dedup_key: string }> };
  for (const f of found) open.set(pairKey(f.service_id, f.dedup_key), f.id);
  return open;
}

/** The incident an alert opens: its first alert decides title, severity and dedup key. */
const openingOf = ({ id, opener: { source, item, eventId }, alerts, group, stormOf }: NewIncident): IncidentOpening => ({
  id,
  eventId,
  organizationId: source.organizationId,
  serviceId: source.serviceId,
  owningTeamId: source.teamId,
  title: stormOf ? `Alert storm from ${source.name ?? 'a source'}: ${item.title}`.slice(0, 255) : item.title,
  description: item.description ?? item.message,
  severity: item.severity,
  dedupKey: item.dedupKey,
  alertCount: alerts,
  actor: INGEST_ACTOR,
  openedBy: stormOf
    ? `the storm guard (the source opened ${stormOf.setting.max_new_incidents} incidents within ${stormOf.setting.within_seconds} s: its new alerts join this incident, ` +
      `which pages once, and nobody is paged for them separately until it has been quiet for ${stormOf.setting.quiet_seconds} s)`
    : group
      ? `an alert (grouping rule "${group.rule}", group ${group.key})`
      : 'an alert',
  noise: { groupRule: group?.rule ?? null, groupKey: group?.key ?? null, openedBySourceId: source.id, stormSourceId: stormOf ? source.id : null },
});

/** The advisory lock and lookup key of a service's group. */
export const groupLookup = (serviceId: string, g: Grouping) => `${serviceId}\u001fgroup\u001f${g.rule.name}\u001f${g.key}`;
/** The advisory lock of a source's storm guard: one batch at a time counts and opens its incidents. */
export const stormLock = (sourceId: string) => `${sourceId}\u001fstorm`;

/**
 * Each group's incident that still takes alerts: opened under the rule for that key within the
 * rule's window, open, and not about to be resolved by its sender (docs/grouping.md, "Rules").
 */
async function findOpenGroups(trx: Knex.Transaction, rows: TriggerRow[], now: Date): Promise<Map<string, string>> {
  const wanted = new Map<string, { s: string; r: string; k: string; since: string }>();
  for (const { source, grouping } of rows) {
    if (!grouping) continue;
    const since = new Date(now.getTime() - grouping.rule.window_seconds * 1000).toISOString();
    wanted.set(groupLookup(source.serviceId, grouping), { s: source.serviceId, r: grouping.rule.name, k: grouping.key, since });
  }
  const found = new Map<string, string>();
  if (wanted.size === 0) return found;
  const { rows: hits } = (await trx.raw(
    `select p.s as service_id, p.r as rule, p.k as key, o.id from json_to_recordset(?::json) as p(s uuid, r text, k text, since timestamptz)
     cross join lateral (
       select id from incidents where service_id = p.s and group_rule = p.r and group_key = p.k and created_at >= p.since
         and status in (${OPEN_STATUSES.map(() => '?').join(', ')}) and alerts_closed_at is null
       order by created_at desc limit 1
     ) as o`,
    [json([...wanted.values()]), ...OPEN_STATUSES],
  )) as { rows: Array<{ service_id: string; rule: string; key: string; id: string }> };
  for (const h of hits) found.set(`${h.service_id}\u001fgroup\u001f${h.rule}\u001f${h.key}`, h.id);
  return found;
}

/** A source's storm guard in a batch: its setting, incidents it opened in the window so far, and its storm incident while one is live. */
interface StormState {
  setting: StormSetting;
  opened: number;
  incident: string | null;
}
const stormIncidentFor = (state: StormState | undefined): string | undefined => state?.incident ?? undefined;

/**
 * The storm guard's state of each guarded source in the batch (docs/grouping.md, "Storm guard"):
 * its storm incident if one is open and an alert joined it within `quiet_seconds`, and the
 * incidents its alerts opened within `within_seconds`. The caller holds the sources' storm locks.
 */
async function stormStates(trx: Knex.Transaction, rows: TriggerRow[], now: Date): Promise<Map<string, StormState>> {
  const guarded = new Map<string, StormSetting>();
  for (const { source } of rows) if (source.storm) guarded.set(source.id, source.storm);
  const states = new Map<string, StormState>();
  if (guarded.size === 0) return states;
  const params = [...guarded].map(([s, g]) => ({
    s,
    within: new Date(now.getTime() - g.within_seconds * 1000).toISOString(),
    quiet: new Date(now.getTime() - g.quiet_seconds * 1000).toISOString(),
  }));
  const { rows: found } = (await trx.raw(
    `select p.s as source_id,
       (select count(*) from incidents i where i.opened_by_source_id = p.s and i.created_at > p.within)::int as opened,
       (select i.id from incidents i where i.storm_source_id = p.s and i.status in (${OPEN_STATUSES.map(() => '?').join(', ')}) and i.alerts_closed_at is null
          and (select max(a.created_at) from alerts a where a.incident_id = i.id) > p.quiet
        order by i.created_at desc limit 1) as incident
     from json_to_recordset(?::json) as p(s uuid, within timestamptz, quiet timestamptz)`,
    [...OPEN_STATUSES, json(params)],
  )) as { rows: Array<{ source_id: string; opened: number; incident: string | null }> };
  for (const f of found) states.set(f.source_id, { setting: guarded.get(f.source_id)!, opened: f.opened, incident: f.incident });
  return states;
}

const alertRow = ({ source, item, eventId }: TriggerRow, incidentId: string, now: Date) => ({
  id: eventId,
  organization_id: source.organizationId,
  source_id: source.id,
  service_id: source.serviceId,
  incident_id: incidentId,
  dedup_key: item.dedupKey,
  title: item.title,
  message: item.message,
  description: item.description,
  severity: item.severity,
  sender: item.sender,
  metadata: item.metadata,
  tags: item.tags ?? null,
  url: item.url ?? null,
  created_at: now,
});

/** The batch's alerts and outbox messages, after its incident writes: all in one statement, one round trip. */
const ALERT_WRITES = `
new_alerts as (
  insert into alerts (id, organization_id, source_id, service_id, incident_id, dedup_key, title, message, description, severity, status, sender, metadata, tags, url, created_at)
  select id, organization_id, source_id, service_id, incident_id, dedup_key, title, message, description, severity, 'ACTIVE', sender, metadata, tags, url, created_at
  from json_to_recordset(:alerts::json) as r(id uuid, organization_id uuid, source_id uuid, service_id uuid, incident_id uuid, dedup_key text, title text, message text, description text, severity text, sender text, metadata jsonb, tags jsonb, url text, created_at timestamptz)
)
insert into ingest_outbox (id, incident_id, event_id, kind, created_at)
select id, incident_id, event_id, kind, created_at from json_to_recordset(:outbox::json) as r(id uuid, incident_id uuid, event_id uuid, kind text, created_at timestamptz)`;

/**
 * Resolves the source's active alerts with the item's key (or the one alert it names by id). When that leaves an open incident with
 * no active alert, its workflow is asked (through the outbox) to resolve it, and the incident
 * stops taking alerts: a re-fire of the key opens a new incident, so it pages again whatever
 * order the resolve and the re-fire reach the workflows in. The caller holds the key's lock
 * (lockDedupKeys). Returns that incident.
 */
export async function storeResolve(trx: Knex.Transaction, source: SourceRef, item: IngestItem, eventId: string, now = new Date()): Promise<string | null> {
  // By id (Opsgenie's identifierType=id): that one alert of the source, whoever sent it.
  const match: Record<string, string> | null =
    item.alertId !== undefined
      ? item.alertId === null
        ? null
        : { source_id: source.id, id: item.alertId }
      : item.dedupKey === null
        ? null
        : { source_id: source.id, sender: item.sender, dedup_key: item.dedupKey };
  if (match === null) return null;
  const touched: Array<{ incident_id: string }> = await trx('alerts')
    .update({ status: 'RESOLVED', resolved_at: now })
    .where({ ...match, status: 'ACTIVE' })
    .returning('incident_id');
  let resolved: string | null = null;
  for (const incidentId of new Set(touched.map((t) => t.incident_id))) {
    // The incident's lock, as the API's alert resolve takes it (alert, then incident): two resolves
    // of its last two alerts cannot each see the other still active and both leave it open.
    await trx('incidents').where({ id: incidentId }).forUpdate().first('id');
    const stillActive = await trx('alerts').where({ incident_id: incidentId, status: 'ACTIVE' }).first('id');
    if (stillActive) continue;
    // The seq the resolve was accepted at: a reopen written after it makes it stale.
    const closedAtSeq = await closeAlertsOfOpenIncident(trx, incidentId, now);
    if (closedAtSeq === null) continue;
    await trx('ingest_outbox').insert({
      id: randomUUID(),
      incident_id: incidentId,
      event_id: eventId,
      kind: 'resolved',
      incident_seq: closedAtSeq,
      created_at: now,
    });
    resolved = incidentId;
  }
  return resolved;
}
