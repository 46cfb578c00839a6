/**
 * The one SSRF guard of every outbound target (HTTP monitors, outgoing webhooks, and later
 * web-push endpoints and chat webhooks): which addresses may be reached (address.ts) and which
 * URLs may be stored (url.ts). The guarded HTTP itself is src/services/targets/http.ts.
 */
export * from './address';
export * from './url';
