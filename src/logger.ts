import pino, { type Logger } from 'pino';

/**
 * Paths whose values are credentials. Request logs carry only method, route pattern, status,
 * duration and request id, but anything that logs an object gets these censored too.
 */
export const REDACT_PATHS = [
  'authorization',
  'password',
  'token',
  'secret',
  'apiKey',
  'api_key',
  'api_token',
  'cookie',
  'csrf',
  'authToken',
  'private_key',
  'key',
  '*.authorization',
  '*.Authorization',
  '*.password',
  '*.token',
  '*.secret',
  '*.apiKey',
  '*.api_key',
  '*.api_token',
  '*.cookie',
  '*.csrf',
  '*.authToken',
  '*.private_key',
  '*.key',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["x-csrf-token"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
];

/** The process logger: JSON lines on stdout (or `destination`, for tests). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'klaxon' } }, destination);
}

export type { Logger };
