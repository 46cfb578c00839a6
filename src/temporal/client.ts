import { Client, Connection } from '@temporalio/client';

/** Connects a Temporal client; the caller closes `connection` when done. */
export async function connectTemporal(address: string, namespace: string): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({
    address,
    connectTimeout: '10s',
    // After a Temporal outage, reconnect within seconds (gRPC's default backoff grows to 2 min),
    // so the outbox delivers what was accepted meanwhile without a long tail.
    channelArgs: { 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 3000 },
  });
  return { client: new Client({ connection, namespace }), connection };
}
