import { ApplicationFailure } from '@temporalio/common';
import { describeError, notAcceptedFailure, permanentFailure, providerDidNotAccept, retryableFailure, scrub } from '../../../src/integrations/failures';
import { PERMANENT_DELIVERY_FAILURE } from '../../../src/integrations/types';

describe('delivery failures', () => {
  it('when a provider echoes a secret, then every occurrence is redacted', () => {
    expect(scrub('bad token abcd1234 (abcd1234)', ['abcd1234', undefined])).toBe('bad token [redacted] ([redacted])');
  });

  it('when a secret is shorter than 4 characters, then it is not used to scrub (it would mangle ordinary words)', () => {
    expect(scrub('a bad request', ['a'])).toBe('a bad request');
  });

  it('when a failure is permanent, then it is a non-retryable ApplicationFailure of the shared type', () => {
    const err = permanentFailure('twilio', 'to +1555 refused: key s3cr3t-v', ['s3cr3t-v']);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: PERMANENT_DELIVERY_FAILURE, nonRetryable: true, message: 'twilio: to +1555 refused: key [redacted]' });
  });

  it('when a failure is retryable, then it is a plain Error with no cause attached', () => {
    const err = retryableFailure('fcm', 'HTTP 503');
    expect(err).not.toBeInstanceOf(ApplicationFailure);
    expect(err.message).toBe('fcm: HTTP 503');
    expect(err.cause).toBeUndefined();
  });

  it('when the provider answered without taking the page, then the error says so; a plain retryable one (timeout, lost connection) does not', () => {
    const refused = notAcceptedFailure('twilio', 'HTTP 503, key s3cr3t-v', ['s3cr3t-v']);
    expect(refused.message).toBe('twilio: HTTP 503, key [redacted]');
    expect(providerDidNotAccept(refused)).toBe(true);
    expect(providerDidNotAccept(retryableFailure('twilio', 'socket hang up'))).toBe(false);
    expect(providerDidNotAccept(undefined)).toBe(false);
  });

  it('when describing an error, then only its message (or name and code) is used, never its other properties', () => {
    const axiosLike = Object.assign(new Error('Request failed'), { config: { auth: { password: 'p' } } });
    expect(describeError(axiosLike)).toBe('Request failed');
    expect(describeError({ name: 'AggregateError', code: 'ECONNREFUSED', message: '' })).toBe('AggregateError ECONNREFUSED');
    expect(describeError(42)).toBe('unknown error');
  });
});
