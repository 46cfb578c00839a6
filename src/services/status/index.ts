/** Operational status: health, response times measured by every process, uptime. */
export * from './histogram';
export * from './request-metrics';
export * from './response-times';
export * from './system-status';
export * from './uptime';
export * from './uptime-math';
