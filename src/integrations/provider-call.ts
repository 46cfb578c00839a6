import { PROVIDER_CALL_DEADLINE_MS } from '../domain/paging/attempt-timeouts';
import { retryableFailure } from './failures';
import type { ChannelSender, OutgoingPage, SentPage } from './types';

/**
 * One provider call, given up on at PROVIDER_CALL_DEADLINE_MS whatever its SDK does, so the
 * attempt always ends before its own cap: an attempt that Temporal times out would be retried
 * while its call can still succeed. Given up on, the call is also aborted (the sender's signal):
 * a request through the bounded client is ended then, not left reading an answer nobody waits
 * for. Its outcome is unknown (the error is a plain retryable one), and the retry is marked as such.
 * `deadlineMs` is for tests.
 */
export async function callProvider(sender: ChannelSender, page: OutgoingPage, deadlineMs = PROVIDER_CALL_DEADLINE_MS): Promise<SentPage> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const given = retryableFailure(sender.provider, `no answer within ${deadlineMs / 1000} s`);
      reject(given);
      controller.abort(given);
    }, deadlineMs);
  });
  try {
    return await Promise.race([sender.send(page, { signal: controller.signal }), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
