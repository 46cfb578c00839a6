/**
 * Pushover pages (docs/integrations/pushover.md): one form-encoded `POST {api}/1/messages.json`
 * per page through the bounded client (src/services/outbound). The answer sorts the outcome:
 * `status: 1` took it (its `receipt`, for an emergency, or `request` is the message id); a 4xx
 * with `errors` refuses it for good (a bad user key also disables the contact method); 429 and
 * 5xx did not take it and are retried; a timeout or lost connection is retried, marked.
 */
import { PROVIDER_CALL_TIMEOUT_MS } from '../../domain/paging/attempt-timeouts';
import { OutboundError, outboundClient, type OutboundClient } from '../../services/outbound';
import { describeError, notAcceptedFailure, permanentFailure, rejectedFailure, retryableFailure } from '../failures';
import type { ChannelProvider, ChannelSender, OutgoingPage, SendOptions, SentPage } from '../types';
import { pushoverConfig, type PushoverConfig } from './config';

/** How much of an answer is read: Pushover's are a few hundred bytes. */
const MAX_ANSWER_BYTES = 16 * 1024;

/** What messages.json answers (the fields Klaxon reads). */
interface PushoverAnswer {
  status?: unknown;
  request?: unknown;
  receipt?: unknown;
  errors?: unknown;
  user?: unknown;
}

/** The message's form fields: who, what, and the channel's own (priority, retry, expire, callback, url, sound). */
export function messageForm(config: PushoverConfig, page: OutgoingPage): URLSearchParams {
  const form = new URLSearchParams({ token: config.appToken, user: page.to, title: page.subject, message: page.text });
  for (const [name, value] of Object.entries(page.extra ?? {})) form.set(name, value);
  return form;
}

/** The `pushover` sender. */
export function createPushoverSender(config: PushoverConfig, client: OutboundClient = pushoverClient()): ChannelSender {
  const secrets = [config.appToken];
  return {
    provider: 'pushover',
    async send(page: OutgoingPage, opts: SendOptions = {}): Promise<SentPage> {
      let status: number;
      let answer: PushoverAnswer = {};
      try {
        const res = await client.request(`${config.apiUrl}/1/messages.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: messageForm(config, page).toString(),
          signal: opts.signal,
        });
        status = res.status;
        try {
          answer = JSON.parse(res.text()) as PushoverAnswer;
        } catch {
          answer = {};
        }
      } catch (err) {
        const reason = err instanceof OutboundError ? err.message : describeError(err);
        if (err instanceof OutboundError && err.status !== null && err.status >= 500)
          throw notAcceptedFailure('pushover', `not accepted: HTTP ${err.status}`, secrets);
        throw retryableFailure('pushover', `not sent: ${reason}`, secrets);
      }
      if (status >= 200 && status < 300 && answer.status === 1) {
        const id = typeof answer.receipt === 'string' ? answer.receipt : typeof answer.request === 'string' ? answer.request : null;
        return { provider: 'pushover', providerMessageId: id };
      }
      const errors = Array.isArray(answer.errors) ? answer.errors.filter((e): e is string => typeof e === 'string').join('; ') : '';
      if (status === 429 || status >= 500) throw notAcceptedFailure('pushover', `not accepted: HTTP ${status}${errors ? `: ${errors}` : ''}`, secrets);
      const why = `refused: ${errors || 'no reason given'} (HTTP ${status})`;
      // A user key Pushover does not know is a dead address; anything else refused this page (the token, a field).
      if (answer.user === 'invalid') throw permanentFailure('pushover', why, secrets);
      throw rejectedFailure('pushover', why, secrets);
    },
  };
}

/** One kept-alive client per sender; the API URL is the operator's (PUSHOVER_API_URL), so only metadata endpoints are refused. */
function pushoverClient(): OutboundClient {
  return outboundClient({ target: 'fixed', keepAlive: true, deadlineMs: PROVIDER_CALL_TIMEOUT_MS, maxBytes: MAX_ANSWER_BYTES });
}

/** The registry's `pushover` provider: pages once PUSHOVER_APP_TOKEN is set. */
export const pushoverProvider: ChannelProvider = (notify) => {
  const config = pushoverConfig(notify);
  if (!config) return undefined;
  return {
    description: `Pushover via ${config.apiUrl}`,
    connect: () => {
      const client = pushoverClient();
      const sender = createPushoverSender(config, client);
      return { pushover: { ...sender, close: async () => client.close() } } as ReturnType<ConfiguredProviderConnect>;
    },
  };
};

type ConfiguredProviderConnect = NonNullable<ReturnType<ChannelProvider>>['connect'];
