import type { Client } from '@temporalio/client';
import { ServiceError } from '@temporalio/client';
import type { AlertsReceived } from '../../src/contracts/workflows';

/** One signalWithStart the fake received and let land. */
export interface RecordedSignal {
  incidentId: string;
  eventIds: string[];
  /** When it landed (Date.now()). */
  at: number;
}

export interface FakeTemporalOptions {
  /** The error the call-th signal to an incident (carrying these events) throws after the few ms a call takes, if any. */
  fail?: (incidentId: string, call: number, eventIds: string[]) => Error | undefined;
  /** A promise a signal to this incident waits for before landing, if any: a relay that holds its claim. */
  hold?: (incidentId: string) => Promise<void> | undefined;
}

/**
 * A Temporal client for the relay that records signals (with when each landed), takes a few ms
 * per call, and fails or holds the calls the options pick. Only what the relay calls is there.
 */
export function fakeTemporal(opts: FakeTemporalOptions = {}) {
  const calls: RecordedSignal[] = [];
  const attempts: Array<{ incidentId: string; eventIds: string[] }> = [];
  const perIncident = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const client = {
    withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
    workflow: {
      async signalWithStart(_workflow: string, options: { args: [{ incidentId: string }]; signal: { name: string }; signalArgs: [AlertsReceived] }) {
        if (options.signal.name !== 'alertsReceived') throw new Error(`unexpected signal ${options.signal.name}`);
        const incidentId = options.args[0].incidentId;
        const eventIds = options.signalArgs[0].events.map((e) => e.eventId);
        const call = perIncident.get(incidentId) ?? 0;
        perIncident.set(incidentId, call + 1);
        attempts.push({ incidentId, eventIds });
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        try {
          await new Promise((r) => setTimeout(r, 5));
          await opts.hold?.(incidentId);
          const error = opts.fail?.(incidentId, call, eventIds);
          if (error) throw error;
          calls.push({ incidentId, eventIds, at: Date.now() });
        } finally {
          inFlight--;
        }
      },
    },
  };
  return {
    client: client as unknown as Client,
    /** Signals that landed. */
    calls,
    /** Every call, failed ones included. */
    attempts,
    maxInFlight: () => maxInFlight,
    signalsOf: (incidentId: string) => calls.filter((c) => c.incidentId === incidentId),
  };
}

/** What a signal fails with when Temporal is away: a ServiceError over gRPC UNAVAILABLE, as the client throws. */
export const outageError = () =>
  new ServiceError('Failed to signalWithStart Workflow', {
    cause: Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14, details: 'No connection established', metadata: {} }),
  });

/** What a signal fails with when Temporal refuses this message: a ServiceError over gRPC INVALID_ARGUMENT. */
export const rejectedError = (details = 'Blob data size exceeds limit.') =>
  new ServiceError('Failed to signalWithStart Workflow', {
    cause: Object.assign(new Error(`3 INVALID_ARGUMENT: ${details}`), { code: 3, details, metadata: {} }),
  });
