/** SCIM provisioning's tables (docs/scim.md). */
export * from './scim-token';
export * from './scim-user';
export * from './scim-group';
