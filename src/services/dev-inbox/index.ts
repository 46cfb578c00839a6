/**
 * The dev inbox: where a channel without provider credentials "sends" (rows in `dev_deliveries`),
 * so pages stay visible. No registry entry: it is what every channel falls back to.
 */
export * from './sender';
