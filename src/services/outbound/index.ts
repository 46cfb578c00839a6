/** The one bounded outbound HTTP client (docs/security.md, "Outbound requests"), and its fetch-shaped adapter. */
export * from './client';
export * from './fetch';
