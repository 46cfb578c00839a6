/**
 * The carriers' circuit breaker (docs/reliability.md, "Carriers"): a carrier failing most of its
 * recent phone pages is skipped for a cool-off, so pages stop waiting on it first. Stateless: its
 * state is worked out from the carrier attempts themselves (src/services/paging/carrier-attempts.ts),
 * so every worker and API process of a cluster sees the same breaker. Pure.
 */
import { CARRIERS, type Carrier } from './carrier-routes';

/** Outcomes counted: the last this long, at most `BREAKER_SAMPLE` per carrier. */
export const BREAKER_WINDOW_MS = 10 * 60_000;
export const BREAKER_SAMPLE = 20;
/** Fewer counted outcomes than this never open the breaker: two bad numbers are not an outage. */
export const BREAKER_MIN_OUTCOMES = 5;
/** How long an open breaker skips its carrier after its newest failure. */
export const BREAKER_COOL_OFF_MS = 5 * 60_000;

/** A settled carrier attempt: it refused or failed the page, or delivered it. A page still waiting for its report is not counted. */
export interface CarrierOutcome {
  carrier: string;
  ok: boolean;
  at: Date;
}

export interface CarrierHealth {
  carrier: Carrier;
  healthy: boolean;
  /** While the breaker skips it: until its newest failure plus the cool-off; null when healthy. */
  skippedUntil: Date | null;
}

/**
 * Each carrier's health at `now`, from its outcomes (any order). Open when, of its newest
 * outcomes in the window, at least BREAKER_MIN_OUTCOMES are counted, more than half failed, and
 * the newest failed: one success after a cool-off (a half-open trial) closes it again.
 */
export function carrierHealth(outcomes: readonly CarrierOutcome[], now: Date, carriers: readonly Carrier[] = CARRIERS): CarrierHealth[] {
  return carriers.map((carrier) => {
    const recent = outcomes
      .filter((o) => o.carrier === carrier && now.getTime() - o.at.getTime() <= BREAKER_WINDOW_MS)
      .sort((a, b) => b.at.getTime() - a.at.getTime())
      .slice(0, BREAKER_SAMPLE);
    const failures = recent.filter((o) => !o.ok);
    const open = recent.length >= BREAKER_MIN_OUTCOMES && failures.length * 2 > recent.length && !recent[0]!.ok;
    const until = open ? new Date(recent[0]!.at.getTime() + BREAKER_COOL_OFF_MS) : null;
    const skipped = until !== null && until.getTime() > now.getTime();
    return { carrier, healthy: !skipped, skippedUntil: skipped ? until : null };
  });
}

/**
 * The order a page tries its carriers: healthy ones in route order, then those the breaker skips
 * (still in route order). A skipped carrier is the last resort, never dropped: when every carrier
 * is failing, one of them may still take the page.
 */
export function orderByHealth(route: readonly Carrier[], health: readonly CarrierHealth[]): Carrier[] {
  const skipped = new Set(health.filter((h) => !h.healthy).map((h) => h.carrier));
  return [...route.filter((c) => !skipped.has(c)), ...route.filter((c) => skipped.has(c))];
}
