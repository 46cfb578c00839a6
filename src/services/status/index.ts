/** Operational status: health, response times and published latencies measured by every process, uptime. */
export * from './histogram';
export * from './latency-metrics';
export * from './minute-buckets';
export * from './request-metrics';
export * from './response-times';
export * from './system-status';
export * from './uptime';
export * from './uptime-math';
