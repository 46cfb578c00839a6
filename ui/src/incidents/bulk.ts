/** One incident's outcome in a bulk acknowledge or resolve (POST /api/incidents/bulk; docs/responding.md, "Bulk"). */
export interface BulkResult {
  /** The incident's id. */
  id: string;
  ok: boolean;
  /** Its number, when it was found. */
  number?: number;
  /** Its status after the action, when done. */
  status?: string;
  /** Why not, when refused. */
  error?: string;
}

/** The server's answer: always 200, one result per incident in the order asked. */
export interface BulkAnswer {
  results: BulkResult[];
  succeeded: number;
  failed: number;
}

/** The answer's results, one per incident (an answer without a list reads as none). */
export const bulkResults = (data: Partial<BulkAnswer> | null | undefined): BulkResult[] => (Array.isArray(data?.results) ? data.results : []);

/** The most a bulk action takes at once. */
export const BULK_MAX = 100;
