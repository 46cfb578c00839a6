import type { Zone } from './local-time';

const HOUR_MS = 3_600_000;

/**
 * A zone whose offsets over [from, to) are read once into a table of constant stretches: a long
 * calendar converts times hundreds of thousands of times, and each IANAZone offset asks Intl
 * (about 5 µs). The zone is sampled hourly (zones change offset far less often) and each change
 * found to the millisecond; outside the range the zone itself answers, so answers never differ.
 */
export function tabulated(zone: Zone, from: number, to: number): Zone {
  const starts = [from];
  const offsets = [zone.offset(from)];
  for (let t = from + HOUR_MS; t < to + HOUR_MS; t += HOUR_MS) {
    const o = zone.offset(t);
    if (o === offsets[offsets.length - 1]) continue;
    // The change lies in (t - 1 h, t]: find its first millisecond.
    let lo = t - HOUR_MS;
    let hi = t;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (zone.offset(mid) === o) hi = mid;
      else lo = mid;
    }
    starts.push(hi);
    offsets.push(o);
  }
  return {
    offset(ts: number): number {
      if (ts < from || ts >= to) return zone.offset(ts);
      let i = starts.length - 1;
      while (starts[i] > ts) i--; // a handful of changes a year: a scan from the end is enough
      return offsets[i];
    },
  };
}
