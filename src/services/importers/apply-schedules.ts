import type { PlannedLayer, PlannedSchedule } from '../../domain/importers/plan';
import { canonicalJson } from '../../domain/ingest/canonical-json';
import { parseLayers, ScheduleInputError } from '../../domain/schedule';
import { DomainError, invalid } from '../errors';
import {
  addScheduleOverride,
  createSchedule,
  getScheduleOf,
  listScheduleOverrides,
  removeScheduleOverride,
  updateSchedule,
  type ScheduleJson,
} from '../paging';
import { dropMapping } from './mappings';
import { membersOf, noteLeftOut } from './apply-people';
import { fit, isPending, type ImportRun } from './run-context';

/** Schedules of an import: layers with members in rotation order, and future overrides (docs/importers.md, "Schedules"). */

const OVERRIDE = 'schedule_override';

/** The layers as Klaxon stores them, members who can be paged only; who is left out is reported. */
function storedLayers(run: ImportRun, s: PlannedSchedule): unknown[] {
  return s.layers.flatMap((layer: PlannedLayer) => {
    const { ids, leftOut } = membersOf(run, layer.users);
    const name = fit(layer.name, 100);
    const where = { external: `${s.externalId}/${layer.externalId}`, name: `${s.name} / ${layer.name}` };
    if (leftOut.length) {
      run.skip('schedule', where.external, where.name, `left out of the rotation: ${leftOut.join('; ')} (later turns come sooner)`);
      noteLeftOut(run, layer.users, { schedule: s.externalId, place: `the rotation "${where.name}"` });
    }
    if (ids.length === 0) {
      run.skip('schedule', where.external, where.name, 'nobody in it can be paged from this workspace yet');
      return [];
    }
    return [
      {
        name,
        users: ids,
        rotation: layer.rotation,
        handoff_time: layer.handoff_time,
        start: layer.start,
        ...(layer.restrictions ? { restrictions: layer.restrictions } : {}),
      },
    ];
  });
}

/**
 * Layers whose people a dry run only plans to make (PENDING ids), with a distinct well-formed id
 * standing in for each, so the layers are checked as the real run's will be.
 */
function withStandIns(layers: unknown[]): unknown[] {
  const standIns = new Map<string, string>();
  const standIn = (id: string) => {
    if (!standIns.has(id)) standIns.set(id, `00000000-0000-4000-8000-${String(standIns.size).padStart(12, '0')}`);
    return standIns.get(id)!;
  };
  return layers.map((l) => {
    const layer = l as { users: string[] };
    return { ...layer, users: layer.users.map((u) => (isPending(u) ? standIn(u) : u)) };
  });
}

/** Layers in the form the schedule service stores them, for comparing with what is stored. */
function normalised(layers: unknown): unknown {
  try {
    return parseLayers(layers);
  } catch {
    return layers;
  }
}

async function currentSchedule(run: ImportRun, id: string | undefined): Promise<ScheduleJson | undefined> {
  if (!id) return undefined;
  try {
    return await getScheduleOf(run.deps.orm, { id, organizationId: run.organizationId });
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return undefined;
    throw err;
  }
}

/** Brings the schedule's future overrides in line with the source's; true when any changed. */
async function syncOverrides(run: ImportRun, s: PlannedSchedule, scheduleId: string | null): Promise<boolean> {
  const opts = { actor: run.actor.audit };
  const existing = scheduleId ? await listScheduleOverrides(run.deps.orm, { scheduleId, organizationId: run.organizationId }) : [];
  const byId = new Map(existing.map((o) => [o.id, o]));
  const wanted = new Set<string>();
  let changed = false;
  for (const o of s.overrides) {
    const key = `${s.externalId}/${o.externalId}`;
    wanted.add(key);
    const { ids, leftOut } = membersOf(run, [o.user]);
    const userId = ids[0];
    if (!userId) {
      const why = leftOut[0] ?? `${o.user} was not brought in`;
      run.skip('schedule', key, `${s.name} / override`, `the override is left out: ${why}`);
      noteLeftOut(run, [o.user], { schedule: s.externalId, place: `an override of "${s.name}" from ${o.from} to ${o.to}` });
      continue;
    }
    const from = new Date(o.from);
    const to = new Date(o.to);
    const mappedId = run.mapped(OVERRIDE, key);
    const now = mappedId ? byId.get(mappedId) : undefined;
    if (now && now.user_id === userId && Date.parse(now.from) === from.getTime() && Date.parse(now.to) === to.getTime()) continue;
    changed = true;
    if (run.dryRun || !scheduleId) continue;
    await run.attempt('schedule', key, `${s.name} / override`, async () => {
      if (now) await removeScheduleOverride(run.deps.orm, { scheduleId, overrideId: now.id, organizationId: run.organizationId }, opts);
      const added = await addScheduleOverride(run.deps.orm, { scheduleId, userId, from, to, organizationId: run.organizationId }, opts);
      await run.remember(OVERRIDE, key, added.id);
    });
  }
  // Overrides an earlier import made that the source no longer has (only those not yet ended are listed).
  for (const [key, id] of run.mappings) {
    const external = key.slice(OVERRIDE.length + 1);
    if (!key.startsWith(`${OVERRIDE}:${s.externalId}/`) || wanted.has(external)) continue;
    if (!byId.has(id)) continue;
    changed = true;
    if (run.dryRun || !scheduleId) continue;
    await removeScheduleOverride(run.deps.orm, { scheduleId, overrideId: id, organizationId: run.organizationId }, opts);
    await dropMapping(run.knex, { organizationId: run.organizationId, system: run.system, kind: OVERRIDE, externalId: external });
  }
  return changed;
}

/** Creates each schedule or brings the one an earlier import made in line (name, zone, layers, overrides). */
export async function applySchedules(run: ImportRun, schedules: PlannedSchedule[]): Promise<void> {
  const opts = { actor: run.actor.audit };
  for (const s of schedules) {
    const name = fit(s.name);
    const layers = storedLayers(run, s);
    if (layers.length === 0) {
      run.skip('schedule', s.externalId, s.name, 'none of its layers has anyone who can be paged from this workspace yet');
      continue;
    }
    const current = await currentSchedule(run, run.mapped('schedule', s.externalId));
    await run.attempt('schedule', s.externalId, s.name, async () => {
      if (current) {
        const same =
          current.name === name && current.time_zone === s.timeZone && canonicalJson(normalised(current.layers)) === canonicalJson(normalised(layers));
        if (!same && !run.dryRun)
          await updateSchedule(run.deps.orm, { id: current.id, organizationId: run.organizationId, changes: { name, timeZone: s.timeZone, layers } }, opts);
        const overridesChanged = await syncOverrides(run, s, current.id);
        if (!same || overridesChanged) run.report.updated.schedule++;
        return run.resolve('schedule', s.externalId, current.id, name);
      }
      if (run.dryRun) {
        // Checked now, so a dry run reports what the real run would refuse.
        try {
          parseLayers(withStandIns(layers));
        } catch (err) {
          if (err instanceof ScheduleInputError) throw invalid(err.message);
          throw err;
        }
        run.report.created.schedule++;
        return run.resolve('schedule', s.externalId, run.pending('schedule', s.externalId), name);
      }
      const created = await createSchedule(run.deps.orm, { organizationId: run.organizationId, name, timeZone: s.timeZone, layers }, opts);
      await run.remember('schedule', s.externalId, created.id);
      run.report.created.schedule++;
      run.resolve('schedule', s.externalId, created.id, name);
      await syncOverrides(run, s, created.id);
    });
  }
}
