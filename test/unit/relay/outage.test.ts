import { ServiceError } from '@temporalio/client';
import { describeFailure, isTemporalOutage } from '../../../src/services/relay/outage';

const grpc = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details, metadata: {} });
const wrapped = (cause: Error) => new ServiceError('Failed to signalWithStart Workflow', { cause });

describe('isTemporalOutage', () => {
  it.each([
    ['UNAVAILABLE', 14],
    ['DEADLINE_EXCEEDED', 4],
    ['RESOURCE_EXHAUSTED', 8],
    ['CANCELLED', 1],
  ])('when the client fails with gRPC %s under a ServiceError, then it is an outage', (_name, code) => {
    expect(isTemporalOutage(wrapped(grpc(code, 'x')))).toBe(true);
  });

  it('when a socket error sits below the client error, then it is an outage', () => {
    expect(
      isTemporalOutage(new Error('connect failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:7233'), { code: 'ECONNREFUSED' }) })),
    ).toBe(true);
  });

  it.each([
    ['INVALID_ARGUMENT', wrapped(grpc(3, 'Blob data size exceeds limit.'))],
    ['NOT_FOUND', wrapped(grpc(5, 'Namespace nope is not found.'))],
    ['a bug in our code', new TypeError("Cannot read properties of undefined (reading 'incident_id')")],
    ['a thrown string', 'boom'],
  ])('when the failure is %s, then it is not an outage (it counts towards parking)', (_name, err) => {
    expect(isTemporalOutage(err)).toBe(false);
  });

  it('when errors cause each other in a cycle, then the check still ends', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(isTemporalOutage(a)).toBe(false);
  });
});

describe('describeFailure', () => {
  it("when the client wraps a gRPC error, then both messages are kept, the cause's detail included", () => {
    expect(describeFailure(wrapped(grpc(3, 'Blob data size exceeds limit.')))).toBe(
      'ServiceError: Failed to signalWithStart Workflow <- Error: 3 Blob data size exceeds limit.',
    );
  });

  it('when the message is long, then it is cut to 500 characters', () => {
    expect(describeFailure(new Error('x'.repeat(2000)))).toHaveLength(500);
  });
});
