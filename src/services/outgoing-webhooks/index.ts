/**
 * Outgoing webhooks (docs/api/outgoing-webhooks.md): the customer's endpoints that receive
 * incident events; the one owner of `outgoing_webhooks` and of their rows of `feed_deliveries` (consumer
 * `outgoing-webhooks`; attempt columns are written through the feed's delivery queue,
 * src/services/incident-feed).
 * Managing subscriptions (manage.ts), their delivery log, test pings and redeliveries
 * (deliveries-log.ts), how they read (views.ts), queueing events for them (fan-out.ts), what
 * deliveries teach about them (subscription-health.ts). Sending is the provider's
 * (src/integrations/outgoing-webhooks/), through the shared SSRF guard (src/services/targets).
 */
export * from './manage';
export * from './fan-out';
export * from './subscription-health';
export * from './deliveries-log';
export * from './views';
