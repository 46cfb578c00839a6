/**
 * How long a page's provider call and its attempt may take (docs/architecture.md, "Paging"). An attempt must
 * never time out while its provider call can still succeed: Temporal would retry it while the
 * first call might still be accepted, and the page would go twice without anyone knowing. So
 * every provider's own timeouts add up to at most PROVIDER_CALL_TIMEOUT_MS, the send activity
 * gives up on a call a little later whatever the SDK does, and both attempt caps leave room
 * for the database work around the call. Pure constants: the workflow reads them too.
 */

/** The most one provider call may take, connecting included (SDK timeouts are set from it). */
export const PROVIDER_CALL_TIMEOUT_MS = 10_000;

/** When the send activity stops waiting for a provider call whose SDK has not given up yet. */
export const PROVIDER_CALL_DEADLINE_MS = PROVIDER_CALL_TIMEOUT_MS + 2_000;

/**
 * The first attempt's cap (a local activity inside the workflow task): the call's deadline plus
 * the attempt's reads and writes. A workflow task held this long is heartbeated by the SDK, so
 * acknowledgements still land within the workflow task timeout.
 */
export const FIRST_ATTEMPT_TIMEOUT_MS = 20_000;

/** The cap of each retried attempt (a regular activity). */
export const RETRY_ATTEMPT_TIMEOUT_MS = 30_000;
