/** The cluster shape (docs/cluster.md): a Temporal server on PostgreSQL, and Klaxon's roles as separate processes. */
export { startClusterInfra, DEFAULT_HISTORY_SHARDS, DYNAMIC_CONFIG_FILE, type ClusterInfra, type ClusterInfraOptions } from './infra';
export { ensureClusterTools, TEMPORAL_SERVER_VERSION } from './tools';
