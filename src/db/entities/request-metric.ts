import { EntitySchema } from '@mikro-orm/core';

/**
 * Requests one HTTP surface answered in one minute whose duration fell in one latency bucket,
 * summed over every process (each flushes its counts every ~10 s): /api/response-time.
 */
export interface RequestMetric {
  /** `app`, `ingest` or `api-key`. */
  surface: string;
  /** The minute (UTC, seconds zero) the requests ended in. */
  minute: Date;
  /** The bucket's upper bound in ms (src/services/status/histogram.ts); 2147483647 for the open one. */
  leMs: number;
  count: number;
  sumMs: number;
}

export const RequestMetricSchema = new EntitySchema<RequestMetric>({
  name: 'RequestMetric',
  tableName: 'request_metrics',
  properties: {
    surface: { type: 'string', length: 16, primary: true },
    minute: { type: 'Date', columnType: 'timestamptz', primary: true },
    leMs: { type: 'integer', primary: true },
    count: { type: 'integer' },
    sumMs: { type: 'double' },
  },
});
