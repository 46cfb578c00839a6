import { bareSignalsPhase } from './bare-signal';
import { IngestBench, type Say } from './ingest-bench';
import { alertStorm, newIncidents } from './ingest-first-time';
import { duplicateReplays, steadyApplied } from './ingest-latency';
import { IngestProbe } from './ingest-probe';
import type { Findings } from './report';
import type { BenchWorkspace } from './seed';
import type { BenchStack } from './stack';

/**
 * The ingestion figures of issue 4, in order: alert storm, new incidents, duplicate replays,
 * 202 → applied at a steady rate, bare signalWithStart; each phase starts once the outbox
 * backlog of the ones before has been delivered and the worker has taken every queued task.
 */
export async function benchIngestion(stack: BenchStack, ws: BenchWorkspace, say: Say): Promise<Findings> {
  const probe = await IngestProbe.connect(stack.infra.databaseUrl);
  try {
    const b = new IngestBench(stack, ws, probe, say);
    const stormApplied = await alertStorm(b);
    const newDelivered = await newIncidents(b);
    await duplicateReplays(b);
    await steadyApplied(b);
    await bareSignalsPhase(b, stormApplied, newDelivered);
    return b.out;
  } finally {
    await probe.close();
  }
}

