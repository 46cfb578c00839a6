/** The guarded HTTP of every outbound target (the pure checks are src/domain/targets). */
export * from './http';
export * from './get-json';
export * from './guarded-fetch';
