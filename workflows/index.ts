/** What the worker bundles: every workflow of Klaxon. */
export { incidentWorkflow } from './incident/workflow';
export { heartbeatWorkflow } from './heartbeat/workflow';
export { retentionWorkflow } from './retention/workflow';
export { monitorWorkflow } from './monitor/workflow';
export { drillWorkflow } from './drill/workflow';
