/**
 * HTTP monitors (issue 14): creating, changing, pausing and deleting them, their workflows, the
 * check itself (probe.ts: SSRF-guarded at each request) and how they read.
 */
export * from './manage';
export { ensureMonitorWorkflows, monitorWorkflowInput } from './workflows';
export { probe, PRIVATE_TARGET_ERROR, MAX_REDIRECTS, type ProbeResult } from './probe';
export { customerMonitorJson, dashboardMonitorJson, type CustomerMonitorJson, type DashboardMonitorJson } from './views';
