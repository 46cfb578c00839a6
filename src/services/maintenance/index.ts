/** Maintenance windows (docs/maintenance-windows.md): the writer, what paging reads, and the nudge of held incidents. */
export * from './windows';
export { serviceHold, pagingHeldOf, withPagingHeld, type PagingHeld } from './holds';
export { nudgeHeldIncidents } from './nudge';
