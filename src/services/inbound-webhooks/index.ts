/**
 * Webhooks (docs/architecture.md, "Inbound webhooks"): alert sources that page channels, one table with the ingestion
 * sources, read and changed here for every surface (API-key, dashboard), and their Form B
 * receiver.
 */
export * from './records';
export * from './manage';
export * from './receive';
export * from './test-notification';
export { createSealer, type Sealer } from '../sealing/seal';
