/**
 * Imports from PagerDuty and Opsgenie (docs/importers.md): the engine that applies a plan through
 * the existing services, the mapping table's one writer, the source client and the report's text.
 * Each system is a registry module's `importer` (src/integrations/types.ts), which reads and maps.
 */
export { applyImportPlan, type ImportRequest } from './engine';
export { ImportSourceError, sourceHttp, type SourceHttp, type SourceHttpOptions } from './source-http';
export { reportText } from './report-text';
export type { ImportActor, ImportDeps } from './run-context';
