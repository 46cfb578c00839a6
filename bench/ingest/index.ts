/**
 * Ingestion (issue 4): how fast the ingest API accepts first-time events (alert storm, new
 * incidents) and duplicate replays, how long an accepted event takes to be applied by its
 * workflow (202 → applied at a steady 100/s), the API-key surface's Form B intake and the
 * PagerDuty- and Opsgenie-compatible intakes beside Form A (intake.ts), and bare Temporal
 * signalWithStart in the same shapes, for the ratios. Each phase has a service and source of its own (bench.ts).
 */
import type { Findings } from '../harness/report';
import type { BenchStack, Say } from '../harness/stack';
import type { BenchWorkspace } from '../harness/workspace';
import { bareSignalsPhase } from './bare-signal';
import { IngestBench } from './bench';
import { alertStorm, newIncidents } from './first-time';
import { duplicateReplays, steadyApplied } from './latency';
import { intakePhases } from './intake';
import { IngestProbe } from './probe';

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
    await intakePhases(b);
    await bareSignalsPhase(b, stormApplied, newDelivered);
    return b.out;
  } finally {
    await probe.close();
  }
}
