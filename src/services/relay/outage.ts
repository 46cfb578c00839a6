/**
 * Which delivery failures mean "Temporal is away" (not reachable, not answering in time, shedding
 * load) rather than "this message cannot be delivered". An outage must not count towards parking:
 * during a Temporal restart every message fails, and parking would take them all. Duck-typed on
 * the gRPC error shape (numeric `code`, string `details`), found anywhere in the `cause` chain, so
 * the CLI, which reads this capability too, does not load the Temporal client.
 */

/** gRPC status codes of an outage: CANCELLED (our connection closing), DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED (rate limits, busy workflow), UNAVAILABLE. */
const OUTAGE_GRPC_CODES = new Set([1, 4, 8, 14]);
/** Socket errors seen below gRPC. */
const OUTAGE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/** True when a delivery failure is Temporal being away, which retries without counting an attempt. */
export function isTemporalOutage(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    const { code, details } = e as Error & { code?: unknown; details?: unknown };
    if (typeof code === 'number' && typeof details === 'string' && OUTAGE_GRPC_CODES.has(code)) return true;
    if (typeof code === 'string' && OUTAGE_SOCKET_CODES.has(code)) return true;
  }
  return false;
}

/** A failure as stored in `last_error` and logged: each message of the cause chain, bounded. */
export function describeFailure(err: unknown): string {
  const parts: string[] = [];
  for (let e = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    if (!parts.some((p) => p.includes(text))) parts.push(text);
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(' <- ').slice(0, 500);
}
