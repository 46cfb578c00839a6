import { Client, Connection } from '@temporalio/client';

/** Connects a Temporal client; the caller closes `connection` when done. */
export async function connectTemporal(address: string, namespace: string): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({ address, connectTimeout: '10s' });
  return { client: new Client({ connection, namespace }), connection };
}
