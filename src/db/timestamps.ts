/**
 * Timestamps from the database as ISO 8601 UTC. MikroORM's driver hands timestamptz columns
 * back as strings, inserts hand back Dates: accept both.
 */
export const iso = (value: Date | string): string => new Date(value).toISOString();
export const isoOrNull = (value: Date | string | null): string | null => (value === null ? null : iso(value));
export const millis = (value: Date | string): number => new Date(value).getTime();
