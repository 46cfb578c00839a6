/**
 * Which carriers a phone page tries, in order (design notes in docs/reliability.md, "Carriers"):
 * `CARRIER_ROUTES` maps an E.164 prefix to an ordered list of carrier names
 * (`{"+49": ["vonage", "twilio"]}`); the longest prefix matching the number wins, and any other
 * number uses the default order: every configured carrier, Twilio first. A carrier that is named
 * but not configured is left out, so a route never points at a carrier that cannot send; a route
 * left with none falls back to the default order, so the page still goes out. Pure.
 */
import { z } from 'zod';

/** The carriers Klaxon can page phones through, in the default order. */
export const CARRIERS = ['twilio', 'vonage'] as const;
export type Carrier = (typeof CARRIERS)[number];

/** At most this many prefixes: a routing table, not a number list. */
const MAX_ROUTES = 500;

/** An E.164 prefix: + and 1 to 15 digits. */
const E164_PREFIX = /^\+\d{1,15}$/;

const carrierList = z
  .array(z.enum(CARRIERS))
  .min(1, 'must name at least one carrier')
  .max(CARRIERS.length)
  .refine((list) => new Set(list).size === list.length, 'must not name a carrier twice');

/** CARRIER_ROUTES as JSON, checked: an error names the prefix it is about. */
export const CarrierRoutes = z.record(z.string(), carrierList).superRefine((routes, ctx) => {
  const prefixes = Object.keys(routes);
  if (prefixes.length > MAX_ROUTES) ctx.addIssue({ code: 'custom', path: [], message: `must hold at most ${MAX_ROUTES} prefixes` });
  for (const key of prefixes.slice(0, MAX_ROUTES)) {
    if (!E164_PREFIX.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: 'must be an E.164 prefix: + and 1 to 15 digits' });
  }
});
export type CarrierRoutes = z.infer<typeof CarrierRoutes>;

/**
 * The carriers to try for `number` (E.164), in order, among those `configured`: the longest
 * matching prefix's list, else every configured carrier in the default order. Empty when none is
 * configured (the page goes to the dev inbox).
 */
export function carriersFor(number: string, routes: CarrierRoutes, configured: ReadonlySet<Carrier>): Carrier[] {
  let best: string | undefined;
  for (const candidate of Object.keys(routes)) {
    if (number.startsWith(candidate) && (best === undefined || candidate.length > best.length)) best = candidate;
  }
  const routed = (best === undefined ? CARRIERS : routes[best]).filter((carrier) => configured.has(carrier));
  // A route naming only carriers that are not configured would page nobody: the default order pages.
  return routed.length > 0 ? routed : CARRIERS.filter((carrier) => configured.has(carrier));
}
