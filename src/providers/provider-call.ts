import { PROVIDER_CALL_DEADLINE_MS } from '../domain/paging/attempt-timeouts';
import { retryableFailure } from './failures';
import type { ChannelSender, OutgoingPage, SentPage } from './types';

/**
 * One provider call, given up on at PROVIDER_CALL_DEADLINE_MS whatever its SDK does, so the
 * attempt always ends before its own cap: an attempt that Temporal times out would be retried
 * while its call can still succeed. Given up on, the call's outcome is unknown (the error is a
 * plain retryable one), and the retry is marked as such.
 */
export async function callProvider(sender: ChannelSender, page: OutgoingPage): Promise<SentPage> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(retryableFailure(sender.provider, `no answer within ${PROVIDER_CALL_DEADLINE_MS / 1000} s`)), PROVIDER_CALL_DEADLINE_MS);
  });
  try {
    return await Promise.race([sender.send(page), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
