import { draftOfRestriction, restrictionBody, type RestrictionDraft } from './restrictionForm';
import type { Layer, RotationUnit } from './types';

/** The schedule form's state and its conversion to and from the API's bodies. */

/** A layer as the form edits it: the number may be half-typed, restrictions may be unset. */
export interface LayerDraft {
  name: string;
  /** User ids, in rotation order. */
  users: string[];
  unit: RotationUnit;
  length: number | string;
  handoffTime: string;
  start: string;
  restrictions: RestrictionDraft[];
}

export interface ScheduleDraft {
  name: string;
  timeZone: string;
  layers: LayerDraft[];
}

/**
 * The units a layer rotates by, in the order the form offers them. The server's list is not
 * imported: its module brings zod, luxon and node:crypto into the bundle. Keyed by the server's
 * type instead, so a unit it adds or drops fails to compile here.
 */
export const ROTATION_UNITS = Object.keys({ hours: true, days: true, weeks: true } satisfies Record<RotationUnit, true>) as RotationUnit[];

/** A new layer: daily, hand-off at 09:00, counting from `today`. */
export const newLayer = (today: string): LayerDraft => ({ name: '', users: [], unit: 'days', length: 1, handoffTime: '09:00', start: today, restrictions: [] });

export const draftOfLayer = (layer: Layer): LayerDraft => ({
  name: layer.name,
  users: [...layer.users],
  unit: layer.rotation.unit,
  length: layer.rotation.length,
  handoffTime: layer.handoff_time,
  start: layer.start,
  restrictions: (layer.restrictions ?? []).map(draftOfRestriction),
});

/**
 * The layer as POST/PUT /schedules takes it. Nothing is checked here: the server's message names
 * the field (`layers.0.rotation.length: …`), and the form shows it there. A half-typed number is
 * sent as it is, so that message is the server's.
 */
export function layerBody(d: LayerDraft): Record<string, unknown> {
  const length = typeof d.length === 'number' ? d.length : d.length.trim() === '' ? d.length : Number(d.length);
  return {
    ...(d.name.trim() ? { name: d.name.trim() } : {}),
    users: d.users,
    rotation: { unit: d.unit, length },
    handoff_time: d.handoffTime,
    start: d.start,
    ...(d.restrictions.length ? { restrictions: d.restrictions.map(restrictionBody) } : {}),
  };
}

export const scheduleBody = (d: ScheduleDraft) => ({ name: d.name, time_zone: d.timeZone, layers: d.layers.map(layerBody) });

/** Moves the item at `index` by `by` places (rotation order), leaving the list as it is at the ends. */
export function moved<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const copy = [...list];
  [copy[index], copy[to]] = [copy[to], copy[index]];
  return copy;
}
