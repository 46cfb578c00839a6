import type { IANAZone } from 'luxon';
import { DAY_MS, instantToWall, wallDayStart, wallToInstant } from './local-time';
import type { Layer, RotationUnit } from './layers';

const HOUR_MS = 3_600_000;
const UNIT_MS: Record<RotationUnit, number> = { hours: HOUR_MS, days: DAY_MS, weeks: 7 * DAY_MS };

/** A layer turned into numbers once: epoch and period in wall ms, windows in wall ms of a day. */
export interface CompiledLayer {
  users: string[];
  epochWall: number;
  periodWall: number;
  windows: Array<{ from: number; to: number }>;
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Expects a layer that parseLayers accepted. */
export function compileLayer(layer: Layer): CompiledLayer {
  const [y, m, d] = layer.start.split('-').map(Number);
  return {
    users: layer.users,
    epochWall: Date.UTC(y, m - 1, d) + minutesOf(layer.handoff_time) * 60_000,
    // Every unit counts on the local clock, so handoffs keep their local time across DST and
    // a shift that spans a change is an hour (Lord Howe: half an hour) shorter or longer.
    periodWall: layer.rotation.length * UNIT_MS[layer.rotation.unit],
    windows: (layer.restrictions ?? []).map((r) => ({ from: minutesOf(r.from) * 60_000, to: minutesOf(r.to) * 60_000 })),
  };
}

/** The instant shift k of the layer starts (shift 0 starts at the layer's start). */
export const shiftStart = (layer: CompiledLayer, zone: IANAZone, k: number): number => wallToInstant(layer.epochWall + k * layer.periodWall, zone);

/** The index of the shift in progress at `at` (a handoff instant belongs to the new shift); -1 before the first. */
export function shiftIndexAt(layer: CompiledLayer, zone: IANAZone, at: number): number {
  // The local clock never overstates the index: once it reads a shift's start, that shift has
  // begun (wallToInstant takes the first such instant). It can understate it after a fall-back
  // (01:15 EST follows a 01:30 EDT handoff), so step forward.
  let k = Math.floor((instantToWall(at, zone) - layer.epochWall) / layer.periodWall);
  while (shiftStart(layer, zone, k + 1) <= at) k++;
  return k < 0 ? -1 : k;
}

/**
 * Whether `at` lies in one of the layer's daily windows. A window of local day D opens at
 * wallToInstant(D + from) and closes at wallToInstant(D + to), so DST edges follow the same
 * rule as handoffs.
 */
export function inWindow(layer: CompiledLayer, zone: IANAZone, at: number): boolean {
  if (layer.windows.length === 0) return true;
  const today = wallDayStart(instantToWall(at, zone));
  return layer.windows.some((w) =>
    // Yesterday's window may wrap past midnight into today; tomorrow's cannot have opened yet.
    [today - DAY_MS, today].some((day) => {
      const end = w.to > w.from ? day + w.to : day + DAY_MS + w.to;
      return wallToInstant(day + w.from, zone) <= at && at < wallToInstant(end, zone);
    }),
  );
}

/** Window edges (opening and closing instants) of local days touching [from, to). */
export function windowEdges(layer: CompiledLayer, zone: IANAZone, from: number, to: number): number[] {
  const edges: number[] = [];
  for (let day = wallDayStart(instantToWall(from, zone)) - DAY_MS; day <= instantToWall(to, zone) + DAY_MS; day += DAY_MS) {
    for (const w of layer.windows) edges.push(wallToInstant(day + w.from, zone), wallToInstant(w.to > w.from ? day + w.to : day + DAY_MS + w.to, zone));
  }
  return edges;
}

/** Who the layer puts on call at `at`, or null (before its start, or outside its windows). */
export function layerUserAt(layer: CompiledLayer, zone: IANAZone, at: number): string | null {
  const k = shiftIndexAt(layer, zone, at);
  if (k < 0 || !inWindow(layer, zone, at)) return null;
  return layer.users[k % layer.users.length];
}
