import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_REGISTRATIONS } from '../contracts/workflows';

/** How long Temporal keeps a closed workflow's history: docker-compose.yml's DEFAULT_NAMESPACE_RETENTION. */
export const NAMESPACE_RETENTION_SECONDS = 7 * 24 * 3600;

const KEYWORD = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
const ALREADY_EXISTS = 6; // gRPC status code

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Registers the namespace (unless it exists) and Klaxon's search attributes, and waits until the
 * frontend serves both: a worker polling, or an incident workflow started with an attribute the
 * server does not know yet, would be refused. What docker-compose.yml's auto-setup image and
 * deploy/temporal/register-search-attributes.sh do, through the SDK instead of a shell.
 */
export async function prepareNamespace(address: string, namespace: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const connection = await connectWhenServing(address, deadline);
  try {
    await connection.workflowService
      .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(NAMESPACE_RETENTION_SECONDS * 1000) })
      .catch((err: { code?: number }) => {
        if (err.code !== ALREADY_EXISTS) throw err;
      });
    // The frontend's namespace cache refreshes on its own schedule (about 10 s).
    await until(deadline, `namespace ${namespace}`, async () => {
      await connection.workflowService.describeNamespace({ namespace });
      return true;
    });
    const wanted = Object.fromEntries(SEARCH_ATTRIBUTE_REGISTRATIONS.map((sa) => [sa.name, KEYWORD]));
    const listed = async () => (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
    const present = await until(deadline, 'the search attribute listing', listed);
    for (const [name, type] of Object.entries(present)) {
      if (name in wanted && type !== KEYWORD) throw new Error(`search attribute ${name} exists with another type; Klaxon needs Keyword. Remove it first.`);
    }
    const missing = Object.fromEntries(Object.entries(wanted).filter(([name]) => !(name in present)));
    if (Object.keys(missing).length) {
      await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing }).catch((err: { code?: number }) => {
        if (err.code !== ALREADY_EXISTS) throw err;
      });
    }
    await until(deadline, "Klaxon's search attributes to be listed", async () => {
      const now = await listed();
      return Object.keys(wanted).every((name) => name in now);
    });
  } finally {
    await connection.close();
  }
}

/** A connection once the frontend answers its health check. */
async function connectWhenServing(address: string, deadline: number): Promise<Connection> {
  return until(deadline, `the Temporal frontend at ${address}`, async () => {
    const connection = await Connection.connect({ address, connectTimeout: '1s' });
    try {
      await connection.healthService.check({});
      return connection;
    } catch (err) {
      await connection.close();
      throw err;
    }
  });
}

/** Retries `attempt` every 500 ms until it returns something truthy; past the deadline, throws with the last error. */
async function until<T>(deadline: number, what: string, attempt: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (;;) {
    try {
      const result = await attempt();
      if (result) return result;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(500);
  }
}
