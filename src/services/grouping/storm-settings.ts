import type { MikroORM } from '@mikro-orm/postgresql';
import { knexOf } from '../../db/knex';
import { effectiveStorm, type StormSetting } from '../../domain/grouping/storm';
import { OPEN_STATUSES } from '../ingest/routing';

/** A source's storm guard as the dashboard shows it: the guard it runs under (null: none) and whether a storm is on now. */
export interface SourceStormView {
  storm: StormSetting | null;
  in_storm: boolean;
}

/**
 * The storm guard of each source (docs/grouping.md, "Storm guard"), and whether it is in a storm:
 * its storm incident is open and an alert joined it within `quiet_seconds`.
 */
export async function stormOfSources(
  orm: MikroORM,
  sourceIds: string[],
  fallback: StormSetting | null,
  now = new Date(),
): Promise<Map<string, SourceStormView>> {
  const out = new Map<string, SourceStormView>();
  if (sourceIds.length === 0) return out;
  const k = knexOf(orm);
  const rows: Array<{ id: string; storm_mode: string; storm: StormSetting | null }> = await k('alert_sources')
    .whereIn('id', sourceIds)
    .select('id', 'storm_mode', 'storm');
  const { rows: live } = (await k.raw(
    `select i.storm_source_id as id, max(a.created_at) as last_at from incidents i join alerts a on a.incident_id = i.id
     where i.storm_source_id = any(?::uuid[]) and i.status in (${OPEN_STATUSES.map(() => '?').join(', ')}) and i.alerts_closed_at is null
     group by i.storm_source_id`,
    [`{${sourceIds.join(',')}}`, ...OPEN_STATUSES],
  )) as { rows: Array<{ id: string; last_at: Date }> };
  const lastAt = new Map(live.map((l) => [l.id, new Date(l.last_at).getTime()]));
  for (const r of rows) {
    const storm = effectiveStorm(r.storm_mode, r.storm, fallback);
    const last = lastAt.get(r.id);
    out.set(r.id, { storm, in_storm: storm !== null && last !== undefined && last > now.getTime() - storm.quiet_seconds * 1000 });
  }
  return out;
}

/** Sets a source's own storm guard; null turns it off (the one writer of `alert_sources.storm*`). */
export async function setSourceStorm(orm: MikroORM, sourceId: string, storm: StormSetting | null): Promise<void> {
  await knexOf(orm)('alert_sources')
    .where({ id: sourceId })
    .update(storm === null ? { storm_mode: 'off', storm: null } : { storm_mode: 'custom', storm: JSON.stringify(storm) });
}
