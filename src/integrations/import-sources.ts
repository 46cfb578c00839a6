import type { ImportPlan, ImportReport, ImportSystem } from '../domain/importers/plan';
import { applyImportPlan, sourceHttp, type ImportDeps, type ImportRequest, type SourceHttpOptions } from '../services/importers';
import { readOpsgenie, opsgenieHeaders, OPSGENIE_API_URL } from './opsgenie/import-client';
import { mapOpsgenie } from './opsgenie/import-map';
import { PAGERDUTY_API_URL, pagerDutyHeaders, readPagerDuty } from './pagerduty/import-client';
import { mapPagerDuty } from './pagerduty/import-map';

/**
 * The systems Klaxon imports from (docs/importers.md): per system its API's default URL, how a
 * credential is sent, and its read and pure mapping. The CLI and the dashboard both import here.
 */
export const IMPORT_SOURCES: Record<ImportSystem, { label: string; defaultUrl: string; headers: (credential: string) => Record<string, string> }> = {
  pagerduty: { label: 'PagerDuty', defaultUrl: PAGERDUTY_API_URL, headers: pagerDutyHeaders },
  opsgenie: { label: 'Opsgenie', defaultUrl: OPSGENIE_API_URL, headers: opsgenieHeaders },
};

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
  const source = IMPORT_SOURCES[system];
  const http = sourceHttp({
    label: source.label,
    baseUrl: access.apiUrl ?? source.defaultUrl,
    headers: source.headers(access.credential),
    allowPrivate: access.allowPrivate,
    ...access.http,
  });
  const plan = system === 'pagerduty' ? mapPagerDuty(await readPagerDuty(http, { now }), { now }) : mapOpsgenie(await readOpsgenie(http), { now });
  return { plan, requests: http.requests };
}

/** Reads, maps and applies (or, in a dry run, compares): the whole import. */
export async function importFrom(deps: ImportDeps, req: ImportRequest, access: SourceAccess): Promise<ImportReport> {
  const { plan } = await loadImportPlan(req.system, access);
  return applyImportPlan(deps, req, plan);
}
