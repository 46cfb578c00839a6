import { ApplicationFailure } from '@temporalio/common';
import { PERMANENT_DELIVERY_FAILURE } from '../../../src/integrations/types';

/** Everything an error could show a log or Temporal: message, stack and own properties. */
const exposed = (err: Error) => JSON.stringify({ ...err, message: err.message, stack: err.stack, cause: String((err as { cause?: unknown }).cause ?? '') });

function expectNoSecrets(err: Error, secrets: string[]) {
  for (const secret of secrets) expect(exposed(err)).not.toContain(secret);
}

/** Awaits a send that must fail permanently (non-retryable ApplicationFailure) without leaking `secrets`. */
export async function expectPermanent(sending: Promise<unknown>, message: RegExp, secrets: string[]): Promise<ApplicationFailure> {
  const err = await sending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  const failure = err as ApplicationFailure;
  expect(failure).toMatchObject({ type: PERMANENT_DELIVERY_FAILURE, nonRetryable: true });
  expect(failure.message).toMatch(message);
  expectNoSecrets(failure, secrets);
  return failure;
}

/** Awaits a send that must fail with a plain (retryable) error without leaking `secrets`. */
export async function expectRetryable(sending: Promise<unknown>, message: RegExp, secrets: string[]): Promise<Error> {
  const err = await sending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  expect(err).not.toBeInstanceOf(ApplicationFailure);
  expect((err as Error).message).toMatch(message);
  expectNoSecrets(err as Error, secrets);
  return err as Error;
}
