/**
 * The watchdog (docs/reliability.md): an end-to-end canary through the ingest listener, the
 * incident workflow and the paging activity, and a heartbeat to an outside monitor (WATCHDOG_URL)
 * only while it passes. `watchdog.ts` runs the loop in every API process; `canary.ts` is one run;
 * `canary-state.ts` is the one writer of `watchdog_canary`; `canary-workspace.ts` sets up the
 * canary's own workspace.
 */
export { Watchdog, canarySourceSecret, type WatchdogDeps } from './watchdog';
export { lastCanarySuccess, recordCanaryPage } from './canary-state';
export type { CanaryOutcome } from './canary';
