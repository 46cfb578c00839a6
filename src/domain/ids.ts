import { randomBytes } from 'node:crypto';

/** True for a UUID in canonical text form; anything else names no row, so no query is made. */
export const isUuid = (value: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** The secret part of an ingestion or heartbeat URL: 192 random bits, URL-safe. */
export const newUrlSecret = (): string => randomBytes(24).toString('base64url');

/** Only secret-shaped strings are hashed and looked up. */
export const looksLikeUrlSecret = (value: string): boolean => /^[A-Za-z0-9_-]{16,128}$/.test(value);
