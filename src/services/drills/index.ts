/**
 * Paging drills (docs/drills.md): the one writer of `drills`, `drill_results` and
 * `drill_schedules`, who a drill pages, and recurring drills' Temporal Schedules.
 */
export * from './drills';
export * from './targets';
export * from './drill-schedules';
export * from './start';
export * from './drill-quota';
