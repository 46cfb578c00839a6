import { ScheduleInputError } from './errors';
import { parseLayers, type StoredLayer } from './layers';
import { DAY_MS, zoneOf, type Zone } from './local-time';
import { compileLayer, layerUserAt, shiftStart, shiftIndexAt, type CompiledLayer } from './rotation';
import { windowEdges } from './windows';
import { tabulated } from './zone-table';

/** Someone on call in [from, to) instead of the layers. */
export interface Override {
  userId: string;
  from: Date;
  to: Date;
}

/** What on-call resolution needs: a zone, layers (lowest first; as given or as stored) and overrides. */
export interface ScheduleSpec {
  timeZone: string;
  layers: readonly StoredLayer[];
  overrides: readonly Override[];
}

/** A stretch of time in which the same people are on call. */
export interface OnCallSpan {
  start: Date;
  end: Date;
  userIds: string[];
}

interface Compiled {
  zone: Zone;
  layers: CompiledLayer[];
  overrides: Array<{ userId: string; from: number; to: number }>;
}

const MAX_SPAN_MS = 366 * DAY_MS;
// How far beyond a range the clock maths looks: a weekly window that began a week earlier, plus
// the day either side wallToInstant samples.
const MARGIN_MS = 9 * DAY_MS;

/** With a range, the zone's offsets over it are tabulated once (zone-table.ts). */
function compile(schedule: ScheduleSpec, range?: { from: number; to: number }): Compiled {
  const iana = zoneOf(schedule.timeZone);
  const zone = range ? tabulated(iana, range.from - MARGIN_MS, range.to + MARGIN_MS) : iana;
  const layers = parseLayers(schedule.layers).map(compileLayer);
  const overrides = schedule.overrides.map((o, i) => {
    const from = o.from.getTime();
    const to = o.to.getTime();
    if (!(from < to)) throw new ScheduleInputError(`overrides[${i}]: from must be before to`);
    return { userId: o.userId, from, to };
  });
  return { zone, layers, overrides };
}

function resolve(s: Compiled, at: number): string[] {
  const overriding = s.overrides.filter((o) => o.from <= at && at < o.to).map((o) => o.userId);
  if (overriding.length > 0) return [...new Set(overriding)];
  // Upper layers win: the last layer with someone on call decides.
  for (let i = s.layers.length - 1; i >= 0; i--) {
    const user = layerUserAt(s.layers[i], s.zone, at);
    if (user !== null) return [user];
  }
  return [];
}

const checkInstant = (name: string, d: Date): number => {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new ScheduleInputError(`${name} must be a valid date`);
  return d.getTime();
};

/**
 * The user ids on call at `at`: every override covering it (from inclusive, to exclusive), else
 * the person of the highest layer that has one. At a handoff instant the new person is on call.
 */
export function onCallAt(schedule: ScheduleSpec, at: Date): string[] {
  return resolve(compile(schedule), checkInstant('at', at));
}

/** Who is on call over [from, to) (at most 366 days), as consecutive spans; empty spans included. */
export function shiftsBetween(schedule: ScheduleSpec, from: Date, to: Date): OnCallSpan[] {
  const start = checkInstant('from', from);
  const end = checkInstant('to', to);
  if (!(start < end)) throw new ScheduleInputError('from must be before to');
  if (end - start > MAX_SPAN_MS) throw new ScheduleInputError('at most 366 days at a time');
  const s = compile(schedule, { from: start, to: end });
  const points = new Set<number>([start]);
  for (const layer of s.layers) {
    for (let k = Math.max(shiftIndexAt(layer, s.zone, start), 0); ; k++) {
      const t = shiftStart(layer, s.zone, k);
      if (t >= end) break;
      points.add(t);
    }
    for (const t of windowEdges(layer.windows, s.zone, start, end)) points.add(t);
  }
  for (const o of s.overrides) points.add(o.from).add(o.to);
  const sorted = [...points].filter((t) => t >= start && t < end).sort((a, b) => a - b);
  const spans: OnCallSpan[] = [];
  sorted.forEach((t, i) => {
    const userIds = resolve(s, t);
    const spanEnd = new Date(sorted[i + 1] ?? end);
    const last = spans.at(-1);
    if (last && last.userIds.join('\n') === userIds.join('\n')) last.end = spanEnd;
    else spans.push({ start: new Date(t), end: spanEnd, userIds });
  });
  return spans;
}
