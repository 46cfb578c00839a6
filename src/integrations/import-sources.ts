import type { ImportPlan, ImportReport, ImportSystem } from '../domain/importers/plan';
import { applyImportPlan, sourceHttp, type ImportDeps, type ImportRequest, type SourceHttpOptions } from '../services/importers';
import { importerOf } from './wiring';

/**
 * Running an import (docs/importers.md): the registry's importer of the system (each module's
 * `importer`: its API's default URL, how a credential is sent, its read and pure mapping) through
 * the bounded source client, then the engine. The CLI and the dashboard both import here.
 */

export interface SourceAccess {
  /** PagerDuty's API token or Opsgenie's API key: sent in a header, never logged, stored or echoed. */
  credential: string;
  apiUrl?: string;
  allowPrivate: boolean;
  /** Retry tuning (tests, the bench). */
  http?: Pick<SourceHttpOptions, 'maxAttempts' | 'baseDelayMs' | 'maxWaitMs'>;
}

/** Reads the source system and maps what it holds; nothing is written. */
export async function loadImportPlan(system: ImportSystem, access: SourceAccess, now = new Date()): Promise<{ plan: ImportPlan; requests: number }> {
  const importer = importerOf(system);
  const http = sourceHttp({
    label: importer.label,
    baseUrl: access.apiUrl ?? importer.defaultUrl,
    headers: importer.headers(access.credential),
    allowPrivate: access.allowPrivate,
    ...access.http,
  });
  const plan = await importer.read(http, { now });
  return { plan, requests: http.requests };
}

/** Reads, maps and applies (or, in a dry run, compares): the whole import. */
export async function importFrom(deps: ImportDeps, req: ImportRequest, access: SourceAccess): Promise<ImportReport> {
  const { plan } = await loadImportPlan(req.system, access);
  return applyImportPlan(deps, { ...req, label: importerOf(req.system).label }, plan);
}
