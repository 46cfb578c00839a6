/** One incident's outcome in a bulk acknowledge or resolve (POST /api/incidents/bulk; docs/incident-page.md, "Bulk"). */
export interface BulkResult {
  incident_id: string;
  ok: boolean;
  /** Its status after the action, when done. */
  status?: string;
  /** Why not, when refused. */
  error?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : isObject(v) && typeof v.message === 'string' ? v.message : undefined);

/**
 * The answer's results, one per incident: `data.results` (or `data` itself as the list), each
 * `{incident_id, ok, status?}` or `{incident_id, ok: false, error}`. An item without `ok` counts
 * as done unless it carries an error.
 */
export function bulkResults(data: unknown): BulkResult[] {
  const list: unknown[] = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.results) ? data.results : [];
  return list.filter(isObject).map((r) => {
    const incident = isObject(r.incident) ? r.incident : undefined;
    const error = text(r.error) ?? (r.ok === false ? text(r.message) : undefined);
    const status = typeof r.status === 'string' ? r.status : typeof incident?.status === 'string' ? incident.status : undefined;
    return {
      incident_id: String(r.incident_id ?? r.id ?? incident?.id ?? ''),
      ok: typeof r.ok === 'boolean' ? r.ok : error === undefined,
      ...(status ? { status } : {}),
      ...(error ? { error } : {}),
    };
  });
}

/** The most a bulk action takes at once. */
export const BULK_MAX = 100;
