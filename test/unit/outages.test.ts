import { ServiceError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { INCIDENT_STORE_UNAVAILABLE, INVALID_TRANSITION } from '../../src/contracts/workflows';
import { outageMessage, outageOf } from '../../src/services/outages';
import { TemporalDeadlineError } from '../../src/temporal/deadline';

/** A gRPC error as @grpc/grpc-js raises it. */
const grpcError = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('outageOf', () => {
  it.each([
    ['Postgres refusing connections', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'database'],
    ['Postgres shutting down', pgError('57P01', 'terminating connection due to administrator command'), 'database'],
    ['a pool that cannot get a connection', new Error('Unable to acquire a connection'), 'database'],
    [
      'a knex error wrapping a dropped connection',
      Object.assign(new Error('insert failed'), { cause: new Error('Connection terminated unexpectedly') }),
      'database',
    ],
    [
      'the workflow giving up on its write',
      new WorkflowUpdateFailedError(
        'Workflow Update failed',
        ApplicationFailure.create({ type: INCIDENT_STORE_UNAVAILABLE, message: 'x', nonRetryable: true }),
      ),
      'database',
    ],
    ['Temporal unreachable', new ServiceError('Failed to start Workflow', { cause: grpcError(14, 'No connection established') }), 'temporal'],
    ['a Temporal call past its deadline', grpcError(4, 'Deadline exceeded'), 'temporal'],
    ['an update call past its deadline', new WorkflowUpdateRPCTimeoutOrCancelledError('timeout', { cause: grpcError(4, 'Deadline exceeded') }), 'temporal'],
    ['our own deadline', new TemporalDeadlineError(5000, { cause: grpcError(1, 'Cancelled on client') }), 'temporal'],
  ])('when %s, then it is an outage of %s', (_name, err, outage) => {
    expect(outageOf(err)).toBe(outage);
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation', pgError('23505', 'duplicate key value violates unique constraint')],
    [
      'a rejected transition',
      new WorkflowUpdateFailedError(
        'Workflow Update failed',
        ApplicationFailure.create({ type: INVALID_TRANSITION, message: 'incident is RESOLVED', nonRetryable: true }),
      ),
    ],
    ['Temporal refusing the request', new ServiceError('Failed', { cause: grpcError(3, 'invalid argument') })],
    ['nothing at all', undefined],
  ])('when %s, then it is no outage', (_name, err) => {
    expect(outageOf(err)).toBeUndefined();
  });

  it('when a dependency is away, then the message names it, says when to retry, and carries nothing of the error', () => {
    expect(outageMessage('database')).toBe('Klaxon is temporarily unavailable: the database cannot be reached; retry in 5 s');
    expect(outageMessage('temporal')).toBe('Klaxon is temporarily unavailable: the workflow service (Temporal) cannot be reached; retry in 5 s');
  });
});
