/**
 * Outgoing webhooks (docs/api/outgoing-webhooks.md): the customer's endpoints that receive
 * incident events. Managing subscriptions (manage.ts), their delivery log, test pings and
 * redeliveries (deliveries-log.ts), how they read (views.ts). Sending is the delivery engine's
 * (delivery*.ts), through the shared SSRF guard (src/services/targets).
 */
export * from './manage';
export * from './deliveries-log';
export * from './views';
