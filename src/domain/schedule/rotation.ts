import { DAY_MS, instantToWall, wallToInstant, type Zone } from './local-time';
import { minutesOf } from './fields';
import type { Layer, RotationUnit } from './layers';
import { compileWindow, inWindows, type CompiledWindow } from './windows';

const HOUR_MS = 3_600_000;
const UNIT_MS: Record<RotationUnit, number> = { hours: HOUR_MS, days: DAY_MS, weeks: 7 * DAY_MS };

/** A layer turned into numbers once: epoch and period in wall ms, its restriction windows (windows.ts). */
export interface CompiledLayer {
  users: string[];
  epochWall: number;
  periodWall: number;
  windows: CompiledWindow[];
}

/** Expects a layer that parseLayers accepted. */
export function compileLayer(layer: Layer): CompiledLayer {
  const [y, m, d] = layer.start.split('-').map(Number);
  return {
    users: layer.users,
    epochWall: Date.UTC(y, m - 1, d) + minutesOf(layer.handoff_time) * 60_000,
    // Every unit counts on the local clock, so handoffs keep their local time across DST and
    // a shift that spans a change is an hour (Lord Howe: half an hour) shorter or longer.
    periodWall: layer.rotation.length * UNIT_MS[layer.rotation.unit],
    windows: (layer.restrictions ?? []).map(compileWindow),
  };
}

/** The instant shift k of the layer starts (shift 0 starts at the layer's start). */
export const shiftStart = (layer: CompiledLayer, zone: Zone, k: number): number => wallToInstant(layer.epochWall + k * layer.periodWall, zone);

/** The index of the shift in progress at `at` (a handoff instant belongs to the new shift); -1 before the first. */
export function shiftIndexAt(layer: CompiledLayer, zone: Zone, at: number): number {
  // The local clock never overstates the index: once it reads a shift's start, that shift has
  // begun (wallToInstant takes the first such instant). It can understate it after a fall-back
  // (01:15 EST follows a 01:30 EDT handoff), so step forward.
  let k = Math.floor((instantToWall(at, zone) - layer.epochWall) / layer.periodWall);
  while (shiftStart(layer, zone, k + 1) <= at) k++;
  return k < 0 ? -1 : k;
}

/** Who the layer puts on call at `at`, or null (before its start, or outside its windows). */
export function layerUserAt(layer: CompiledLayer, zone: Zone, at: number): string | null {
  const k = shiftIndexAt(layer, zone, at);
  if (k < 0 || !inWindows(layer.windows, zone, at)) return null;
  return layer.users[k % layer.users.length];
}
