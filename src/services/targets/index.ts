/**
 * The SSRF guard of every outbound target (the pure checks are src/domain/targets) and the two
 * shapes its callers use most, over the one bounded client (src/services/outbound).
 */
export * from './guard';
export * from './post-json';
export * from './get-json';
