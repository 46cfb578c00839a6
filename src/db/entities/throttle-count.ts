import { EntitySchema } from '@mikro-orm/core';

/**
 * One throttle's count for one subject in its current window (src/services/throttles). Written
 * only by rate-limiter-flexible's Postgres store, whose columns these are; declared here so the
 * migration and the entities agree, and so the table is created by a migration, not at runtime.
 */
export interface ThrottleCount {
  /** `<throttle name>:<sha256 hex of the subject>`, e.g. `login-account:…`. */
  key: string;
  /** Points counted in the window (a refused attempt may leave it above the limit). */
  points: number;
  /** When the window ends, in epoch milliseconds; the hourly retention purge deletes rows past it. */
  expire?: string | null;
}

export const ThrottleCountSchema = new EntitySchema<ThrottleCount>({
  name: 'ThrottleCount',
  tableName: 'throttle_counts',
  properties: {
    key: { type: 'string', length: 255, primary: true },
    points: { type: 'integer', default: 0 },
    expire: { type: 'bigint', nullable: true, index: true },
  },
});
