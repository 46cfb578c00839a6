import { LIMITS } from '../schedule';
import type { PlannedLayer, PlannedRestriction, Skipped } from './plan';
import { periodMs, rotateLeft, splitWall, wallOf } from './time';

/** Where a rotation hands off, as a Klaxon layer says it: its first shift's local date and time, and who goes first. */
export type Anchored = { ok: true; start: string; handoff_time: string; users: string[]; note?: string } | { ok: false; why: string };

/**
 * Anchors a rotation whose turns count from `rotationStart` (PagerDuty's rotation_virtual_start,
 * Opsgenie's startDate) in the schedule's zone. When the layer itself starts later
 * (`layerStart`), the anchor moves to the first handoff at or after it, the order turned so the
 * same person is on; a layer starting mid-turn loses that part-turn, noted when it lies ahead.
 */
export function anchorRotation(input: {
  rotationStart: string;
  layerStart?: string;
  zone: string;
  rotation: PlannedLayer['rotation'];
  users: string[];
  now: Date;
}): Anchored {
  const first = wallOf(input.rotationStart, input.zone);
  if (first === null) return { ok: false, why: `its rotation start ${JSON.stringify(input.rotationStart)} is not a valid instant` };
  const period = periodMs(input.rotation);
  let anchor = first;
  let users = input.users;
  let note: string | undefined;
  const layerStart = input.layerStart === undefined ? null : wallOf(input.layerStart, input.zone);
  if (layerStart !== null && layerStart > first) {
    const k = Math.ceil((layerStart - first) / period);
    anchor = first + k * period;
    users = rotateLeft(users, k);
    if (anchor > layerStart && Date.parse(input.layerStart!) > input.now.getTime()) {
      const at = splitWall(anchor);
      note = `it starts mid-turn at ${input.layerStart}: in Klaxon it starts at its next handoff, ${at.date} ${at.time} (${input.zone})`;
    }
  }
  const local = splitWall(anchor);
  if (local.seconds !== 0) return { ok: false, why: `it hands off at ${local.time}:${String(local.seconds).padStart(2, '0')}: Klaxon hands off on the minute` };
  return { ok: true, start: local.date, handoff_time: local.time, users, ...(note ? { note } : {}) };
}

/** Why a layer does not fit Klaxon's limits, or null. */
export function layerSizeRefusal(users: readonly string[], restrictions: readonly PlannedRestriction[] | undefined): string | null {
  if (users.length > LIMITS.usersPerLayer) return `it has ${users.length} people: a Klaxon layer holds at most ${LIMITS.usersPerLayer}`;
  if ((restrictions?.length ?? 0) > LIMITS.restrictions)
    return `it has ${restrictions!.length} time windows: a Klaxon layer holds at most ${LIMITS.restrictions}`;
  return null;
}

/**
 * Keeps the highest `LIMITS.layers` layers (lowest first, so the last ones win): the lowest show
 * least, and each one left out is reported.
 */
export function withinLayerLimit<T extends { externalId: string; name: string }>(
  layers: T[],
  schedule: { externalId: string; name: string },
  skipped: Skipped[],
): T[] {
  const extra = layers.length - LIMITS.layers;
  if (extra <= 0) return layers;
  for (const layer of layers.slice(0, extra)) {
    skipped.push({
      kind: 'schedule',
      external_id: `${schedule.externalId}/${layer.externalId}`,
      name: `${schedule.name} / ${layer.name}`,
      why: `the schedule has ${layers.length} layers, more than Klaxon's ${LIMITS.layers}: its lowest layers are left out`,
    });
  }
  return layers.slice(extra);
}
